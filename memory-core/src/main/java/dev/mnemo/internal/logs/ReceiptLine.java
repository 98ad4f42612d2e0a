package dev.mnemo.internal.logs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemoryReceipt.InjectedFile;
import dev.mnemo.MemoryReceipt.ToolRead;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A receipt as one thread-log message: a sentence a person reads in {@code mnemo logs}, then, after
 * {@link #SEPARATOR}, the receipt as JSON for the console and other readers. Citation notes are not
 * written (they are the answering model's words about memory).
 */
public final class ReceiptLine {

    /** Between the sentence and the JSON. */
    static final String SEPARATOR = " | ";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory JSON_FACTORY = JSON.getFactory();

    private ReceiptLine() {}

    /** The log message for {@code receipt}. */
    public static String format(MemoryReceipt receipt) {
        StringWriter message = new StringWriter(1024);
        message.append(sentence(receipt)).append(SEPARATOR);
        try {
            json(receipt, message);
        } catch (IOException cannotHappen) {
            throw new UncheckedIOException("writing to a string failed", cannotHappen);
        }
        return message.toString();
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
        long tokens = 0;
        boolean cut = false;
        for (InjectedFile f : receipt.injected()) {
            tokens += f.tokens();
            cut |= f.truncated();
        }
        long bytes = 0;
        for (ToolRead r : receipt.reads()) {
            bytes += r.bytesReturned();
        }
        Set<String> files = new HashSet<>();
        Set<String> conversations = new HashSet<>();
        for (MemoryCitation c : receipt.citations()) {
            for (CitationEntry e : c.entries()) {
                files.add(e.path());
            }
            conversations.addAll(c.rolloutIds());
        }
        return "memory given: " + (receipt.given()
                        ? receipt.injected().size() + " file(s), " + tokens + " tokens" + (cut ? ", cut by the cap" : "")
                        : "none")
                + "; read: " + (receipt.read() ? receipt.reads().size() + " tool call(s), " + bytes + " bytes" : "none")
                + "; cited: " + (receipt.cited()
                        ? files.size() + " file(s) from " + conversations.size() + " conversation(s)"
                        : "none");
    }

    /**
     * The receipt as compact JSON, written field by field (a tree of nodes cost a turn several
     * kilobytes of garbage): the same text, key order and escaping as the node tree's
     * {@code toString()} this replaced.
     */
    private static void json(MemoryReceipt receipt, Writer out) throws IOException {
        try (JsonGenerator g = JSON_FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("threadId", receipt.threadId());
            g.writeArrayFieldStart("injected");
            for (InjectedFile f : receipt.injected()) {
                g.writeStartObject();
                g.writeStringField("scope", f.scope());
                g.writeStringField("kind", f.kind());
                g.writeStringField("path", f.path());
                g.writeStringField("sha256", f.sha256());
                g.writeNumberField("bytes", f.bytes());
                g.writeNumberField("tokens", f.tokens());
                g.writeBooleanField("truncated", f.truncated());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("reads");
            for (ToolRead r : receipt.reads()) {
                g.writeStartObject();
                g.writeStringField("tool", r.tool());
                g.writeStringField("target", r.target());
                g.writeNumberField("bytes", r.bytesReturned());
                g.writeBooleanField("failed", r.failed());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("citations");
            for (MemoryCitation c : receipt.citations()) {
                g.writeStartObject();
                g.writeArrayFieldStart("entries");
                for (CitationEntry e : c.entries()) {
                    g.writeStartObject();
                    g.writeStringField("path", e.path());
                    g.writeNumberField("lineStart", e.lineStart());
                    g.writeNumberField("lineEnd", e.lineEnd());
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeArrayFieldStart("rolloutIds");
                for (String id : c.rolloutIds()) {
                    g.writeString(id);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }
}
