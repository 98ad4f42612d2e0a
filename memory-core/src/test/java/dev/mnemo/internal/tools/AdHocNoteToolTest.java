package dev.mnemo.internal.tools;

import static dev.mnemo.internal.tools.LocalMemoryTools.ADD_AD_HOC_NOTE;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The ad-hoc note tool (read sheet §4.6; extension tests 42–43). */
class AdHocNoteToolTest extends ToolsFixture {

    private static final String NAME = "2026-05-26T13-42-08-remember-review-style.md";

    private String add(String filename, String note) {
        return "{\"filename\":\"" + filename + "\",\"note\":" + quote(note) + "}";
    }

    private static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void addNote_createsNoteFileVerbatim() throws IOException {
        Path fresh = temp.resolve("fresh-root");
        LocalMemoryTools freshTools = new LocalMemoryTools(fresh, CLOCK);

        String output = freshTools.call(ADD_AD_HOC_NOTE, add(NAME, "Remember to keep PR review comments concise."));

        assertThat(output).isEqualTo("{}");
        Path note = fresh.resolve("extensions/ad_hoc/notes").resolve(NAME);
        assertThat(Files.readString(note)).isEqualTo("Remember to keep PR review comments concise.");
        try (Stream<Path> files = Files.list(note.getParent())) {
            assertThat(files).containsExactly(note); // no temp file left behind
        }
    }

    @Test
    void addNote_redactsSecretsBeforeWriting() throws IOException {
        String secret = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6";
        String output = tools.call(ADD_AD_HOC_NOTE, add(NAME, "Deploy with OPENAI_API_KEY=" + secret + " please."));

        assertThat(output).isEqualTo("{}");
        String written = Files.readString(root.resolve("extensions/ad_hoc/notes").resolve(NAME));
        assertThat(written).doesNotContain(secret).contains("[REDACTED_SECRET]").startsWith("Deploy with");
    }

    @Test
    void addNote_usesTheRedactorItWasGiven() throws IOException {
        LocalMemoryTools custom = new LocalMemoryTools(root, CLOCK, text -> text.replace("hunter2", "[REDACTED_SECRET]"));

        custom.call(ADD_AD_HOC_NOTE, add(NAME, "the password is hunter2"));

        assertThat(Files.readString(root.resolve("extensions/ad_hoc/notes").resolve(NAME)))
                .isEqualTo("the password is [REDACTED_SECRET]");
    }

    @Test
    void addNote_rejectsPathsAsFilenames() {
        String message = error(ADD_AD_HOC_NOTE, add("../" + NAME, "note"));

        assertThat(message).contains("filename").contains("YYYY-MM-DDTHH-MM-SS")
                .isEqualTo("filename '../" + NAME + "' must use YYYY-MM-DDTHH-MM-SS-<slug>.md");
        assertThat(root.resolve("extensions")).doesNotExist();
    }

    @Test
    void addNote_appliesFilenameRulesInCodexOrder() {
        assertThat(error(ADD_AD_HOC_NOTE, add("2026-05-26T13-42-08-" + "a".repeat(106) + ".md", "n")))
                .endsWith("must be at most 128 bytes");
        assertThat(error(ADD_AD_HOC_NOTE, add("2026-05-26T13-42-08-note.txt", "n"))).endsWith("must end with .md");
        assertThat(error(ADD_AD_HOC_NOTE, add("2026-5-26T13-42-08-note.md", "n")))
                .endsWith("must use YYYY-MM-DDTHH-MM-SS-<slug>.md");
        assertThat(error(ADD_AD_HOC_NOTE, add("2026-05-26T13-42-08-.md", "n"))).endsWith("slug must be 1 to 80 bytes");
        assertThat(error(ADD_AD_HOC_NOTE, add("2026-05-26T13-42-08-" + "a".repeat(81) + ".md", "n")))
                .endsWith("slug must be 1 to 80 bytes");
        assertThat(error(ADD_AD_HOC_NOTE, add("2026-05-26T13-42-08-Upper.md", "n")))
                .endsWith("slug must contain only lowercase ASCII letters, digits, or hyphens");
        assertThat(error(ADD_AD_HOC_NOTE, add("2026-05-26T13-42-08-a/b.md", "n")))
                .endsWith("slug must contain only lowercase ASCII letters, digits, or hyphens");
        assertThat(error(ADD_AD_HOC_NOTE, add("9999-99-99T99-99-99-no-calendar-check.md", "   ")))
                .isEqualTo("ad-hoc note must not be empty");
    }

    @Test
    void addNote_neverOverwritesAnExistingNote() throws IOException {
        assertThat(tools.call(ADD_AD_HOC_NOTE, add(NAME, "first"))).isEqualTo("{}");

        assertThat(error(ADD_AD_HOC_NOTE, add(NAME, "second"))).isEqualTo("ad-hoc note '" + NAME + "' already exists");
        assertThat(Files.readString(root.resolve("extensions/ad_hoc/notes").resolve(NAME))).isEqualTo("first");
    }

    @Test
    void addNote_requiresBothFields() {
        assertThat(error(ADD_AD_HOC_NOTE, "{\"note\":\"n\"}")).isEqualTo("missing field `filename`");
        assertThat(error(ADD_AD_HOC_NOTE, "{\"filename\":\"" + NAME + "\"}")).isEqualTo("missing field `note`");
    }
}
