package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryReceipt.InjectedFile;
import dev.mnemo.ProjectKeys;
import dev.mnemo.llm.TokenCounter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a build of the instructions names as injected, for receipts: each summary and pending note
 * whose content is in the text, with the hash and size of the file's bytes, the tokens injected as
 * the cap counts them, and whether the cap cut it; nothing for an empty build.
 */
class InjectedFilesTest {

    private static final String APP = "git@example.com:team/app.git";

    @TempDir
    Path temp;

    private Path root;

    @BeforeEach
    void createRoot() throws IOException {
        root = Files.createDirectories(temp.resolve("memories"));
    }

    private void write(String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void globalSummary_isNamedWithItsBytesHashAndTokens() throws Exception {
        String summary = "  Prefer small commits.\n\n";
        write("memory_summary.md", summary);

        DeveloperInstructions.Built built = new DeveloperInstructions(root, MemoriesConfig.defaults())
                .built(Optional.empty(), true);

        assertThat(built.text()).contains("Prefer small commits.");
        assertThat(built.injected()).containsExactly(new InjectedFile("global", "summary", "memory_summary.md",
                sha256(summary), summary.getBytes(StandardCharsets.UTF_8).length,
                (int) TokenCounter.estimateTokens("Prefer small commits."), false));
    }

    @Test
    void summaryOverTheCap_isMarkedTruncated_withTheTokensThatWereInjected() throws Exception {
        write("memory_summary.md", "- a fact worth keeping\n".repeat(2_000));
        MemoriesConfig config = MemoriesConfig.builder().summaryTokenLimit(500).build();

        InjectedFile global = new DeveloperInstructions(root, config).built(Optional.empty(), true).injected().get(0);

        assertThat(global.truncated()).isTrue();
        assertThat(global.tokens()).isBetween(490, 520);
        assertThat(global.bytes()).isEqualTo(23L * 2_000);
    }

    @Test
    void projectSession_namesTheProjectSummaryThenTheGlobalOne_andItsPendingNotes() throws Exception {
        String slug = ProjectKeys.slug(APP);
        write("projects/" + slug + "/memory_summary.md", "The app uses pnpm.");
        write("memory_summary.md", "Prefer small commits.");
        String note = AdHocNoteFiles.fileText(Optional.of(slug), "From now on the app uses yarn.");
        write("extensions/ad_hoc/notes/2026-12-01T10-00-00-yarn.md", note);
        write("extensions/ad_hoc/notes/2026-12-01T11-00-00-tabs.md", "Use tabs everywhere.");

        DeveloperInstructions.Built built = new DeveloperInstructions(root, MemoriesConfig.defaults())
                .built(Optional.of(APP), true);

        assertThat(built.injected()).extracting(InjectedFile::scope, InjectedFile::kind, InjectedFile::path)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("global", "note",
                                "extensions/ad_hoc/notes/2026-12-01T11-00-00-tabs.md"),
                        org.assertj.core.groups.Tuple.tuple("project:" + slug, "note",
                                "extensions/ad_hoc/notes/2026-12-01T10-00-00-yarn.md"),
                        org.assertj.core.groups.Tuple.tuple("project:" + slug, "summary",
                                "projects/" + slug + "/memory_summary.md"),
                        org.assertj.core.groups.Tuple.tuple("global", "summary", "memory_summary.md"));
        assertThat(built.injected().get(1).sha256()).isEqualTo(sha256(note));
        assertThat(built.injected()).noneMatch(InjectedFile::truncated);
    }

    @Test
    void anotherProjectsNote_isNeitherShownNorNamed() throws Exception {
        write("memory_summary.md", "Prefer small commits.");
        write("extensions/ad_hoc/notes/2026-12-01T10-00-00-other.md",
                AdHocNoteFiles.fileText(Optional.of("other-project"), "Other project note."));

        DeveloperInstructions.Built built = new DeveloperInstructions(root, MemoriesConfig.defaults())
                .built(Optional.of(APP), true);

        assertThat(built.injected()).extracting(InjectedFile::path).containsExactly("memory_summary.md");
    }

    @Test
    void noSummary_orMemoriesOff_injectsNothing() throws Exception {
        assertThat(new DeveloperInstructions(root, MemoriesConfig.defaults()).built(Optional.empty(), true))
                .isEqualTo(DeveloperInstructions.Built.NONE);
        write("memory_summary.md", "Prefer small commits.");
        assertThat(new DeveloperInstructions(root, MemoriesConfig.builder().useMemories(false).build())
                .built(Optional.empty(), true)).isEqualTo(DeveloperInstructions.Built.NONE);
    }

    @Test
    void aChangedSummary_isNamedWithItsNewHash() throws Exception {
        DeveloperInstructions instructions = new DeveloperInstructions(root, MemoriesConfig.defaults());
        write("memory_summary.md", "v1");
        String first = instructions.built(Optional.empty(), true).injected().get(0).sha256();
        write("memory_summary.md", "version two");

        InjectedFile second = instructions.built(Optional.empty(), true).injected().get(0);

        assertThat(second.sha256()).isEqualTo(sha256("version two")).isNotEqualTo(first);
        assertThat(second.bytes()).isEqualTo(11);
    }
}
