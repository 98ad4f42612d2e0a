package dev.mnemo.internal.tools;

import static dev.mnemo.internal.tools.LocalMemoryTools.ADD_AD_HOC_NOTE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.internal.redact.DefaultSecretRedactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The note tool tells whoever shares the notes (the engine's workspace) of each note it wrote. */
class AdHocNoteSharingTest extends ToolsFixture {

    private static final String NAME = "2026-05-26T13-42-08-shared-note.md";
    private static final String ARGS = "{\"filename\":\"" + NAME + "\",\"note\":\"keep it short\"}";

    @Test
    void addNote_tellsTheCallbackOfTheFinishedNote() {
        List<String> told = new CopyOnWriteArrayList<>();
        LocalMemoryTools shared = new LocalMemoryTools(root, CLOCK, new DefaultSecretRedactor(), note -> {
            told.add(readQuietly(note));
            return true;
        });

        assertThat(shared.call(ADD_AD_HOC_NOTE, ARGS)).isEqualTo("{}");

        assertThat(told).containsExactly("keep it short");
    }

    @Test
    void addNote_whoseNameWasTakenWhereNotesAreShared_reportsItAsExisting() {
        LocalMemoryTools shared = new LocalMemoryTools(root, CLOCK, new DefaultSecretRedactor(), note -> false);

        assertThat(parse(shared.call(ADD_AD_HOC_NOTE, ARGS)).get("error").asText())
                .isEqualTo("ad-hoc note '" + NAME + "' already exists");
    }

    @Test
    void failedCall_tellsNothing() {
        List<Path> told = new CopyOnWriteArrayList<>();
        LocalMemoryTools shared = new LocalMemoryTools(root, CLOCK, new DefaultSecretRedactor(), note -> told.add(note));

        shared.call(ADD_AD_HOC_NOTE, "{\"filename\":\"../escape.md\",\"note\":\"x\"}");

        assertThat(told).isEmpty();
    }

    private static String readQuietly(Path note) {
        try {
            return Files.readString(note);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
