package dev.mnemo.internal.tools;

import static dev.mnemo.internal.tools.LocalMemoryTools.SEARCH;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The search's unsorted folder walk and its raw-byte screen against an oracle written here with
 * {@link Files#walk}: the same files (hidden names, symlinks and non-UTF-8 files left out), the same
 * order, the same line numbers and lines, through every page.
 */
class SearchWalkTest extends ToolsFixture {

    private Path outside;

    @BeforeEach
    void createTree() throws IOException {
        write("MEMORY.md", "needle at the top\nnothing\n");
        write("a.txt", "needle in sibling\n");
        write("a/child.md", "a needle in child\r\nand a second needle\n");
        write("a-b/x.md", "needle after a dash\n");
        write("\u00e9t\u00e9/notes.md", "needle in a non-ASCII folder\n");
        write("z/deep/er/still/file.md", "line\nneedle deep down\n");
        write("rollout_summaries/w.md", "the w\u00f6rld needle\n\u4e2d\u6587 needle\nemoji \uD83D\uDE00 needle\n");
        write("no-match.md", "nothing to see\n");
        write(".git/HEAD", "needle hidden\n");
        write("a/.hidden.md", "needle hidden\n");
        write(".hidden/inner.md", "needle hidden\n");
        Files.write(root.resolve("a/not-utf8.md"), bytes("needle then a bad byte ", 0xC3));
        Files.write(root.resolve("a/overlong.md"), bytes("needle ", 0xC0, 0xAF));
        Files.write(root.resolve("a/surrogate.md"), bytes("needle ", 0xED, 0xA0, 0x80));
        Files.write(root.resolve("a/latin1.md"), "the w\u00f6rld needle\n".getBytes(StandardCharsets.ISO_8859_1));
        outside = temp.resolve("outside");
        Files.createDirectories(outside);
        Files.writeString(outside.resolve("secret.md"), "needle secret\n");
        Files.createSymbolicLink(root.resolve("linked-folder"), outside);
        Files.createSymbolicLink(root.resolve("a/linked.md"), outside.resolve("secret.md"));
    }

    @Test
    void search_returnsWhatAPlainWalkFindsForScreenedQueries() throws IOException {
        for (String query : List.of("needle", "w\u00f6rld", "\u4e2d\u6587", "second needle", "absent", "e")) {
            assertThat(searchAll(query, "")).as(query).isEqualTo(oracle(query, ""));
        }
    }

    @Test
    void search_returnsWhatAPlainWalkFindsForQueriesTheScreenLeavesAlone() throws IOException {
        assertThat(searchAll("\uD83D\uDE00", "")).isEqualTo(oracle("\uD83D\uDE00", ""));
        assertThat(searchAll("\uD83D", "")).isEqualTo(oracle("\uD83D", ""));
        assertThat(searchAll("NEEDLE", ",\"case_sensitive\":false")).isEqualTo(oracle("needle", ""));
    }

    @Test
    void search_ordersByBytesAcrossFoldersAndSkipsWhatItMustNotRead() throws IOException {
        List<String> paths = searchAll("needle", "").stream().map(hit -> hit.split(":")[0]).distinct().toList();

        assertThat(paths).containsExactly("MEMORY.md", "a-b/x.md", "a.txt", "a/child.md",
                "rollout_summaries/w.md", "z/deep/er/still/file.md", "\u00e9t\u00e9/notes.md");
    }

    @Test
    void search_pagesThroughTheSameSortedMatches() throws IOException {
        List<String> paged = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = ok(SEARCH, "{\"queries\":[\"needle\"],\"max_results\":2"
                    + (cursor == null ? "" : ",\"cursor\":\"" + cursor + "\"") + "}");
            page.get("matches").forEach(match -> paged.add(hit(match)));
            cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asText();
        } while (cursor != null);

        assertThat(paged).isEqualTo(oracle("needle", ""));
    }

    @Test
    void search_scopedToAFolderWalksOnlyThatFolder() throws IOException {
        assertThat(searchAll("needle", ",\"path\":\"a\"")).isEqualTo(oracle("needle", "a"))
                .containsExactly("a/child.md:1:a needle in child", "a/child.md:2:and a second needle");
        assertThat(error(SEARCH, "{\"queries\":[\"needle\"],\"path\":\"linked-folder\"}"))
                .contains("must not be a symlink");
        assertThat(error(SEARCH, "{\"queries\":[\"needle\"],\"path\":\"../outside\"}"))
                .contains("must stay within the memories root");
    }

    @Test
    void search_findsAQueryAtTheEndOfFilesLargerThanTheScreenBuffer() throws IOException {
        byte[] filler = "x".repeat(63 * 1024).getBytes(StandardCharsets.UTF_8);
        write("big/just-over-64k.md", new String(filler, StandardCharsets.UTF_8) + "\n".repeat(1024) + "tail needle\n");
        StringBuilder huge = new StringBuilder(RawByteScreen.MAX_SCREENED_BYTES + 2048);
        int lines = 0;
        for (; huge.length() <= RawByteScreen.MAX_SCREENED_BYTES; lines++) {
            huge.append("x".repeat(1023)).append('\n');
        }
        write("big/over-the-cap.md", huge.append("tail needle\n").toString());

        assertThat(searchAll("tail needle", ",\"path\":\"big\"")).containsExactly(
                "big/just-over-64k.md:1025:tail needle",
                "big/over-the-cap.md:" + (lines + 1) + ":tail needle");
    }

    /** Every match of one query, through one big page, as {@code path:line:content}. */
    private List<String> searchAll(String query, String extra) {
        JsonNode result = ok(SEARCH, "{\"queries\":[" + jsonString(query) + "],\"max_results\":1000" + extra + "}");
        List<String> hits = new ArrayList<>();
        result.get("matches").forEach(match -> hits.add(hit(match)));
        return hits;
    }

    /** A JSON string with every non-ASCII char escaped, so a lone surrogate survives the trip. */
    private static String jsonString(String text) {
        StringBuilder json = new StringBuilder("\"");
        text.chars().forEach(c -> json.append(c < 0x80 ? String.valueOf((char) c) : String.format("\\u%04x", c)));
        return json.append('"').toString();
    }

    private static String hit(JsonNode match) {
        return match.get("path").asText() + ":" + match.get("match_line_number").asInt() + ":"
                + match.get("content").asText();
    }

    /** The specification by brute force: every visible UTF-8 file, every line holding the query. */
    private List<String> oracle(String query, String under) throws IOException {
        List<String[]> hits = new ArrayList<>();
        Path start = under.isEmpty() ? root : root.resolve(under);
        try (Stream<Path> files = Files.walk(start)) {
            for (Path file : files.toList()) {
                String shown = root.relativize(file).toString();
                if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                        || Arrays.stream(shown.split("/")).anyMatch(part -> part.startsWith("."))) {
                    continue;
                }
                String text;
                try {
                    text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                            .toString();
                } catch (CharacterCodingException e) {
                    continue;
                }
                List<String> lines = MemorySearch.lines(text);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).contains(query)) {
                        hits.add(new String[] {shown, String.valueOf(i + 1), lines.get(i)});
                    }
                }
            }
        }
        hits.sort((a, b) -> {
            int byPath = MemoryPaths.UTF8_ORDER.compare(a[0], b[0]);
            return byPath != 0 ? byPath : Integer.compare(Integer.parseInt(a[1]), Integer.parseInt(b[1]));
        });
        return hits.stream().map(hit -> String.join(":", hit)).toList();
    }

    private static byte[] bytes(String ascii, int... tail) {
        byte[] head = ascii.getBytes(StandardCharsets.US_ASCII);
        byte[] all = Arrays.copyOf(head, head.length + tail.length);
        for (int i = 0; i < tail.length; i++) {
            all[head.length + i] = (byte) tail[i];
        }
        return all;
    }
}
