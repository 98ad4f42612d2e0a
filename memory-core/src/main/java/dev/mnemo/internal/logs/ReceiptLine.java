package dev.mnemo.internal.logs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemoryReceipt.InjectedFile;
import dev.mnemo.MemoryReceipt.ToolRead;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A receipt as one thread-log message: a sentence a person reads in {@code mnemo logs}, then, after
 * {@link #SEPARATOR}, the receipt as JSON for the console and other readers. Citation notes are not
 * written (they are the answering model's words about memory).
 */
public final class ReceiptLine {

    /** Between the sentence and the JSON. */
    static final String SEPARATOR = " | ";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReceiptLine() {}

    /** The log message for {@code receipt}. */
    public static String format(MemoryReceipt receipt) {
        return sentence(receipt) + SEPARATOR + json(receipt);
    }

    /** The receipt a {@link #format} message holds; empty for any other message. */
    public static Optional<MemoryReceipt> parse(String message) {
        int at = message.indexOf(SEPARATOR + "{");
        if (at < 0) {
            return Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(message.substring(at + SEPARATOR.length()));
            List<InjectedFile> injected = new ArrayList<>();
            for (JsonNode f : root.path("injected")) {
                injected.add(new InjectedFile(f.path("scope").asText(), f.path("kind").asText(), f.path("path").asText(),
                        f.path("sha256").asText(), f.path("bytes").asLong(), f.path("tokens").asInt(),
                        f.path("truncated").asBoolean()));
            }
            List<ToolRead> reads = new ArrayList<>();
            for (JsonNode r : root.path("reads")) {
                reads.add(new ToolRead(r.path("tool").asText(), r.path("target").asText(), r.path("bytes").asLong(),
                        r.path("failed").asBoolean()));
            }
            List<MemoryCitation> citations = new ArrayList<>();
            for (JsonNode c : root.path("citations")) {
                List<CitationEntry> entries = new ArrayList<>();
                for (JsonNode e : c.path("entries")) {
                    entries.add(new CitationEntry(e.path("path").asText(), e.path("lineStart").asInt(),
                            e.path("lineEnd").asInt(), ""));
                }
                List<String> ids = new ArrayList<>();
                c.path("rolloutIds").forEach(id -> ids.add(id.asText()));
                citations.add(new MemoryCitation(entries, ids));
            }
            return Optional.of(new MemoryReceipt(root.path("threadId").asText(), injected, reads, citations));
        } catch (Exception notAReceipt) {
            return Optional.empty();
        }
    }

    private static String sentence(MemoryReceipt receipt) {
        long tokens = receipt.injected().stream().mapToLong(InjectedFile::tokens).sum();
        boolean cut = receipt.injected().stream().anyMatch(InjectedFile::truncated);
        long bytes = receipt.reads().stream().mapToLong(ToolRead::bytesReturned).sum();
        long files = receipt.citations().stream().flatMap(c -> c.entries().stream()).map(CitationEntry::path)
                .distinct().count();
        long conversations = receipt.citations().stream().flatMap(c -> c.rolloutIds().stream()).distinct().count();
        return "memory given: " + (receipt.given()
                        ? receipt.injected().size() + " file(s), " + tokens + " tokens" + (cut ? ", cut by the cap" : "")
                        : "none")
                + "; read: " + (receipt.read() ? receipt.reads().size() + " tool call(s), " + bytes + " bytes" : "none")
                + "; cited: " + (receipt.cited() ? files + " file(s) from " + conversations + " conversation(s)" : "none");
    }

    private static String json(MemoryReceipt receipt) {
        ObjectNode root = JSON.createObjectNode();
        root.put("threadId", receipt.threadId());
        ArrayNode injected = root.putArray("injected");
        for (InjectedFile f : receipt.injected()) {
            injected.addObject().put("scope", f.scope()).put("kind", f.kind()).put("path", f.path())
                    .put("sha256", f.sha256()).put("bytes", f.bytes()).put("tokens", f.tokens())
                    .put("truncated", f.truncated());
        }
        ArrayNode reads = root.putArray("reads");
        for (ToolRead r : receipt.reads()) {
            reads.addObject().put("tool", r.tool()).put("target", r.target()).put("bytes", r.bytesReturned())
                    .put("failed", r.failed());
        }
        ArrayNode citations = root.putArray("citations");
        for (MemoryCitation c : receipt.citations()) {
            ObjectNode citation = citations.addObject();
            ArrayNode entries = citation.putArray("entries");
            for (CitationEntry e : c.entries()) {
                entries.addObject().put("path", e.path()).put("lineStart", e.lineStart()).put("lineEnd", e.lineEnd());
            }
            ArrayNode ids = citation.putArray("rolloutIds");
            c.rolloutIds().forEach(ids::add);
        }
        return root.toString();
    }
}
