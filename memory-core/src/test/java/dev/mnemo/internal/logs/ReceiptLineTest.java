package dev.mnemo.internal.logs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemoryReceipt.InjectedFile;
import dev.mnemo.MemoryReceipt.ToolRead;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The receipt's log line is written field by field; thread logs already hold lines written from a
 * node tree, and readers (the console, {@code mnemo logs}) compare and parse them, so the text must
 * not change by a byte.
 */
class ReceiptLineTest {

    static Stream<MemoryReceipt> receipts() {
        String sha = "0123456789abcdef".repeat(4);
        return Stream.of(
                MemoryReceipt.none(""),
                MemoryReceipt.none("conv-1"),
                new MemoryReceipt("receipt-turn",
                        List.of(new InjectedFile("global", "summary", "memory_summary.md", sha, 40_960, 4_990, true)),
                        List.of(new ToolRead("memories_read", "memory_summary.md", 40_960, false),
                                new ToolRead("memories_search", "hermetic build", 3_000, false)),
                        List.of(new MemoryCitation(List.of(new CitationEntry("MEMORY.md", 3, 4, "the build is hermetic")),
                                List.of("0199812e-64f0-7f73-91fc-095dda01c36e")))),
                new MemoryReceipt("gespräch-🙂-日本",
                        List.of(new InjectedFile("project", "summary", "projects/café/memory_summary.md", sha, 0, 0,
                                        false),
                                new InjectedFile("global", "note", "notes/\"quoted\" \\ back\tslash\u0001.md", "", 1, 1,
                                        false)),
                        List.of(new ToolRead("memories_search", "line\nbreak \u2028 </script> \ud83d\ude00", 0, true),
                                new ToolRead("memories_list", "", Long.MAX_VALUE, false)),
                        List.of()),
                new MemoryReceipt("many-citations", List.of(), List.of(),
                        List.of(new MemoryCitation(List.of(new CitationEntry("MEMORY.md", 1, 2, "a"),
                                        new CitationEntry("MEMORY.md", 7, 7, "same file again"),
                                        new CitationEntry("rollout_summaries/ü.md", 0, -1, "")),
                                        List.of("r1", "r2")),
                                new MemoryCitation(List.of(), List.of("r2", "r3")),
                                new MemoryCitation(List.of(new CitationEntry("MEMORY.md", 5, 6, "")), List.of()))),
                new MemoryReceipt("only-injected",
                        List.of(new InjectedFile("global", "summary", "memory_summary.md", sha, Integer.MAX_VALUE + 1L,
                                Integer.MAX_VALUE, true)),
                        List.of(), List.of()));
    }

    @ParameterizedTest
    @MethodSource("receipts")
    void format_writesTheSameTextAsTheNodeTreeItReplaced(MemoryReceipt receipt) {
        assertThat(ReceiptLine.format(receipt)).isEqualTo(NodeTreeFormat.format(receipt));
    }

    @ParameterizedTest
    @MethodSource("receipts")
    void format_readsBackAsTheSameReceiptWithoutCitationNotes(MemoryReceipt receipt) {
        MemoryReceipt back = ReceiptLine.parse(ReceiptLine.format(receipt)).orElseThrow();

        assertThat(back.threadId()).isEqualTo(receipt.threadId());
        assertThat(back.injected()).isEqualTo(receipt.injected());
        assertThat(back.reads()).isEqualTo(receipt.reads());
        assertThat(back.citations()).hasSameSizeAs(receipt.citations());
        for (int i = 0; i < receipt.citations().size(); i++) {
            assertThat(back.citations().get(i).rolloutIds()).isEqualTo(receipt.citations().get(i).rolloutIds());
            assertThat(back.citations().get(i).entries()).extracting(CitationEntry::path)
                    .isEqualTo(receipt.citations().get(i).entries().stream().map(CitationEntry::path).toList());
        }
    }

    /** The format as it was written before (a Jackson node tree and streams), kept to compare with. */
    private static final class NodeTreeFormat {

        private static final ObjectMapper JSON = new ObjectMapper();

        static String format(MemoryReceipt receipt) {
            return sentence(receipt) + ReceiptLine.SEPARATOR + json(receipt);
        }

        private static String sentence(MemoryReceipt receipt) {
            long tokens = receipt.injected().stream().mapToLong(InjectedFile::tokens).sum();
            boolean cut = receipt.injected().stream().anyMatch(InjectedFile::truncated);
            long bytes = receipt.reads().stream().mapToLong(ToolRead::bytesReturned).sum();
            long files = receipt.citations().stream().flatMap(c -> c.entries().stream()).map(CitationEntry::path)
                    .distinct().count();
            long conversations = receipt.citations().stream().flatMap(c -> c.rolloutIds().stream()).distinct()
                    .count();
            return "memory given: " + (receipt.given()
                            ? receipt.injected().size() + " file(s), " + tokens + " tokens"
                                    + (cut ? ", cut by the cap" : "")
                            : "none")
                    + "; read: " + (receipt.read() ? receipt.reads().size() + " tool call(s), " + bytes + " bytes"
                            : "none")
                    + "; cited: " + (receipt.cited() ? files + " file(s) from " + conversations + " conversation(s)"
                            : "none");
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
                    entries.addObject().put("path", e.path()).put("lineStart", e.lineStart())
                            .put("lineEnd", e.lineEnd());
                }
                ArrayNode ids = citation.putArray("rolloutIds");
                c.rolloutIds().forEach(ids::add);
            }
            return root.toString();
        }
    }
}
