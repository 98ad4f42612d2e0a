package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The developer-instructions builder against a real memory folder (read sheet §1–§2; tests 41, 48). */
class DeveloperInstructionsTest {

    private static final String BEGINS = "========= MEMORY_SUMMARY BEGINS =========";
    private static final String ENDS = "========= MEMORY_SUMMARY ENDS =========";

    @TempDir
    Path temp;

    private Path root;

    @BeforeEach
    void createRoot() throws IOException {
        root = Files.createDirectories(temp.resolve("memories"));
    }

    private String build(MemoriesConfig config) {
        return new DeveloperInstructions(root, config).build();
    }

    private String build() {
        return build(MemoriesConfig.defaults());
    }

    private void summary(String text) throws IOException {
        Files.writeString(root.resolve("memory_summary.md"), text, StandardCharsets.UTF_8);
    }

    private static String between(String instructions) {
        int start = instructions.indexOf(BEGINS) + BEGINS.length() + 1;
        return instructions.substring(start, instructions.indexOf(ENDS) - 1);
    }

    @Test
    void build_rendersTemplateWithSummaryAndAbsoluteRoot() throws IOException {
        summary("Remember repository-specific implementation preferences.");

        String instructions = build();

        assertThat(instructions).contains("- " + root.toAbsolutePath() + "/memory_summary.md (already provided below; do NOT open again)");
        assertThat(instructions).contains("Remember repository-specific implementation preferences.");
        assertThat(instructions.split(Pattern.quote(BEGINS), -1)).hasSize(2);
        assertThat(between(instructions)).isEqualTo("Remember repository-specific implementation preferences.");
        assertThat(instructions).startsWith("## Memory").doesNotContain("{{");
    }

    @Test
    void build_hasTheTwelveSectionsInOrder() throws IOException {
        summary("facts");

        String instructions = build();

        List<String> markers = List.of("## Memory", "Deciding whether a new request needs memory",
                "What the memory folder contains", "Quick memory pass", "4-6 search steps", "While working",
                "Deciding whether to check a remembered fact", "Answering from memory without checking",
                "<oai-mem-citation>", "extensions/ad_hoc/notes/", BEGINS, ENDS, "quick memory pass before");
        int last = -1;
        for (String marker : markers) {
            int at = instructions.indexOf(marker, last + 1);
            assertThat(at).as("'%s' after position %d", marker, last).isGreaterThan(last);
            last = at;
        }
        assertThat(instructions).contains("<citation_entries>", "</citation_entries>", "<rollout_ids>",
                "</rollout_ids>", "</oai-mem-citation>", "|note=[", "YYYY-MM-DDTHH-MM-SS");
    }

    @Test
    void build_dedicatedToolsSwitchesSearchGuidanceToTheTools() throws IOException {
        summary("facts");

        String shell = build(MemoriesConfig.builder().dedicatedTools(false).build());
        String tools = build(MemoriesConfig.builder().dedicatedTools(true).build());

        assertThat(shell).doesNotContain("memories_search").contains("Search " + root.toAbsolutePath() + "/MEMORY.md");
        assertThat(tools).contains("`memories_search`", "`memories_read`", "`memories_list`",
                "`memories_add_ad_hoc_note`");
        assertThat(between(tools)).isEqualTo("facts");
    }

    @Test
    void forTools_namesOnlyTheMemoryToolsAndPathsInsideTheMemoryFolder() throws IOException {
        summary("facts");

        String tools = new DeveloperInstructions(root, MemoriesConfig.builder().dedicatedTools(false).build()).forTools();

        assertThat(tools).contains("`memories_search`", "`memories_read`", "`memories_list`",
                "`memories_add_ad_hoc_note`", "- MEMORY.md: the searchable index", "the tools cannot open them");
        assertThat(tools).doesNotContain(root.toAbsolutePath().toString()).doesNotContain("`rg`")
                .doesNotContain("search the raw `rollout_path` logs");
        assertThat(between(tools)).isEqualTo("facts");
    }

    @Test
    void build_withoutDedicatedTools_namesAbsolutePathsForAShell() throws IOException {
        summary("facts");

        String shell = build(MemoriesConfig.builder().dedicatedTools(false).build());

        assertThat(shell).contains("- " + root.toAbsolutePath() + "/MEMORY.md: the searchable index",
                "search the raw `rollout_path` logs", "  - A raw log is append-only JSONL");
    }

    @Test
    void build_isEmptyWhenSummaryMissingBlankOrMemoriesOff() throws IOException {
        assertThat(build()).isEmpty();

        summary(" \n\t \n");
        assertThat(build()).isEmpty();

        summary("facts");
        assertThat(build(MemoriesConfig.builder().useMemories(false).build())).isEmpty();
    }

    @Test
    void build_isEmptyWhenSummaryIsNotUtf8() throws IOException {
        Files.write(root.resolve("memory_summary.md"), new byte[] {'o', 'k', (byte) 0xC3, '(', '\n'});

        assertThat(build()).isEmpty();
    }

    @Test
    void build_isEmptyWhenSummaryIsUnreadable() throws IOException {
        Files.createDirectories(root.resolve("memory_summary.md")); // a folder where the file should be
        assertThat(build()).isEmpty();

        Files.delete(root.resolve("memory_summary.md"));
        summary("secret");
        Files.setPosixFilePermissions(root.resolve("memory_summary.md"), PosixFilePermissions.fromString("---------"));
        if (!Files.isReadable(root.resolve("memory_summary.md"))) { // root ignores permissions
            assertThat(build()).isEmpty();
        }
    }

    @Test
    void build_readsTheSummaryAfreshEachCall() throws IOException {
        DeveloperInstructions instructions = new DeveloperInstructions(root, MemoriesConfig.defaults());
        summary("first version");
        String first = instructions.build();

        summary("second version");

        assertThat(between(first)).isEqualTo("first version");
        assertThat(between(instructions.build())).isEqualTo("second version");
    }

    @Test
    void build_trimsAndKeepsTemplateLookingTextVerbatim() throws IOException {
        summary("\n\n  uses {{ base_path }} and {{ memory_summary }} literally \n\n");

        assertThat(between(build())).isEqualTo("uses {{ base_path }} and {{ memory_summary }} literally");
    }

    @Test
    void build_capsSummaryAtConfiguredTokenLimitWithMiddleTruncation() throws IOException {
        String head = "H".repeat(3_000);
        String tail = "T".repeat(3_000);
        summary(head + "M".repeat(4_000) + tail); // 10,000 bytes

        String capped = between(build(MemoriesConfig.builder().summaryTokenLimit(1_000).build()));
        String full = between(build());

        assertThat(full).hasSize(10_000);
        Matcher marker = Pattern.compile("\u2026(\\d+) tokens truncated\u2026").matcher(capped);
        assertThat(marker.find()).isTrue();
        assertThat(marker.group(1)).isEqualTo("1500"); // (10,000 - 4,000) / 4
        assertThat(capped).isEqualTo("H".repeat(2_000) + marker.group() + "T".repeat(2_000));
    }
}
