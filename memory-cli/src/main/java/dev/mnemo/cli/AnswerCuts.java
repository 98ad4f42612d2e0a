package dev.mnemo.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The cuts {@link OutputBudget} makes in an answer that paging alone cannot bring within the
 * budget, each leaving a visible marker and valid JSON: a string cut to its start, an array of
 * strings cut to its first elements, and, as a last resort, the longest strings of any answer.
 * Sizes are bytes as the answer is sent: UTF-8, with JSON's escapes.
 */
final class AnswerCuts {

    /** A string shorter than this is not worth cutting in the last resort. */
    private static final int MIN_CUTTABLE_BYTES = 48;
    /** Rounds of the last resort before it gives up. */
    private static final int MAX_ROUNDS = 200;

    private AnswerCuts() {}

    /** The bytes {@code text} takes inside a JSON string (without its quotes). */
    static long jsonBytes(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            bytes += jsonBytes(codePoint);
            i += Character.charCount(codePoint);
        }
        return bytes;
    }

    private static int jsonBytes(int codePoint) {
        if (codePoint == '\n' || codePoint == '"' || codePoint == '\\' || codePoint == '\t' || codePoint == '\r') {
            return 2;
        }
        if (codePoint < 0x20) {
            return 6;
        }
        return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    }

    static long utf8Bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The end of the longest run of whole code points from {@code from} within {@code bytes} JSON bytes. */
    static int prefixEnd(String text, int from, long bytes) {
        long used = 0;
        int end = from;
        while (end < text.length()) {
            int codePoint = text.codePointAt(end);
            used += jsonBytes(codePoint);
            if (used > bytes) {
                break;
            }
            end += Character.charCount(codePoint);
        }
        return end;
    }

    /** {@code text}, or its start followed by a marker giving its length, within {@code maxBytes} JSON bytes. */
    static String cutString(String text, long maxBytes) {
        if (jsonBytes(text) <= maxBytes) {
            return text;
        }
        String marker = "…[cut: " + text.codePointCount(0, text.length()) + " characters in all]";
        return text.substring(0, prefixEnd(text, 0, Math.max(0, maxBytes - jsonBytes(marker)))) + marker;
    }

    /**
     * Cuts an array of strings to within {@code room} bytes: each element to at most half the room,
     * then as many as fit, followed by an element {@code "…[N more]"} when some are left out.
     *
     * @return whether it changed
     */
    static boolean shortenStrings(ArrayNode array, long room) {
        if (array.toString().getBytes(StandardCharsets.UTF_8).length <= room) {
            return false;
        }
        List<String> kept = new ArrayList<>();
        long used = 2;
        int shown = 0;
        long reserve = 24; // the "…[N more]" element
        for (JsonNode element : array) {
            String text = cutString(element.asText(), Math.max(16, (room - reserve) / 2));
            long bytes = jsonBytes(text) + 3;
            if (used + bytes > room - reserve) {
                break;
            }
            kept.add(text);
            used += bytes;
            shown++;
        }
        int more = array.size() - shown;
        array.removeAll();
        kept.forEach(array::add);
        if (more > 0) {
            array.add("…[" + more + " more]");
        }
        return true;
    }

    /**
     * The last resort, for any answer: cuts its longest string, or halves its longest array of
     * plain values, until it fits in {@code maxBytes}; arrays of objects (a page's entries or
     * matches, which a cursor counts) are left to paging. When even that cannot make it fit, a
     * short error saying so.
     */
    static String shrink(JsonNode answer, long maxBytes, int maxTokens) {
        JsonNode tree = answer.deepCopy();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            String text = tree.toString();
            long over = utf8Bytes(text) - maxBytes;
            if (over <= 0) {
                return text;
            }
            Slot longest = longest(tree, null, null, -1, new Slot[1]);
            ArrayNode widest = widest(tree, null);
            String cut = longest == null || jsonBytes(longest.value()) < MIN_CUTTABLE_BYTES ? null
                    : cutString(longest.value(), Math.max(16, Math.min(jsonBytes(longest.value()) / 2,
                            jsonBytes(longest.value()) - over)));
            if (cut != null && jsonBytes(cut) < jsonBytes(longest.value())) {
                longest.replace(cut);
            } else if (widest != null) {
                int half = widest.size() / 2;
                int more = widest.size() - half;
                while (widest.size() > half) {
                    widest.remove(widest.size() - 1);
                }
                widest.add("…[" + more + " more]");
            } else {
                break;
            }
        }
        return JsonNodeFactory.instance.objectNode().put("error", "this answer does not fit in --max-output-tokens "
                + maxTokens + "; ask for less (a narrower path, fewer or shorter queries)").toString();
    }

    /** A string value in an object field or an array element. */
    private record Slot(JsonNode container, String field, int index, String value) {
        void replace(String text) {
            if (container instanceof ObjectNode object) {
                object.put(field, text);
            } else {
                ((ArrayNode) container).set(index, JsonNodeFactory.instance.textNode(text));
            }
        }
    }

    private static Slot longest(JsonNode node, JsonNode container, String field, int index, Slot[] best) {
        if (node.isTextual()) {
            if (best[0] == null || node.asText().length() > best[0].value().length()) {
                best[0] = new Slot(container, field, index, node.asText());
            }
        } else if (node.isObject()) {
            node.fields().forEachRemaining(entry -> longest(entry.getValue(), node, entry.getKey(), -1, best));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                longest(node.get(i), node, null, i, best);
            }
        }
        return best[0];
    }

    /** The array of plain values (no objects or arrays in it) with the most elements, over one. */
    private static ArrayNode widest(JsonNode node, ArrayNode best) {
        if (node.isArray()) {
            boolean plain = true;
            for (JsonNode element : node) {
                plain &= element.isValueNode();
                best = widest(element, best);
            }
            if (plain && node.size() > 1 && (best == null || node.size() > best.size())) {
                best = (ArrayNode) node;
            }
        } else if (node.isObject()) {
            for (JsonNode value : node) {
                best = widest(value, best);
            }
        }
        return best;
    }
}
