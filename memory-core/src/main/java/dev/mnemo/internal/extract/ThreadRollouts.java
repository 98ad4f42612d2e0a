package dev.mnemo.internal.extract;

import dev.mnemo.TranscriptLine;
import dev.mnemo.internal.rollout.RolloutReader;
import dev.mnemo.internal.rollout.Transcript;
import java.util.List;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.spi.SessionStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * Opens and renders the rollout of a thread: through the {@link SessionStore} when it holds it (a
 * session recorded here or on another server), else as the file its thread row names (Codex CLI's
 * sessions, a rollout registered by hand).
 */
public final class ThreadRollouts implements RolloutInput {

    private final SessionStore sessions;
    private final SecretRedactor redactor;
    private final RolloutRenderer renderer = new RolloutRenderer();

    public ThreadRollouts(SessionStore sessions, SecretRedactor redactor) {
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    /** The thread's conversation, readable and redacted ({@link Transcript}). */
    public List<TranscriptLine> transcript(ThreadInfo thread) throws IOException {
        Objects.requireNonNull(thread, "thread");
        try (InputStream in = sessions.holds(thread) ? sessions.open(thread)
                : RolloutReader.open(thread.rolloutPath())) {
            return Transcript.read(in, thread.rolloutPath().toString(), redactor);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public RenderedRollout render(ThreadInfo thread, long budgetBytes) throws IOException {
        Objects.requireNonNull(thread, "thread");
        try {
            if (!sessions.holds(thread)) {
                return renderer.render(thread.rolloutPath(), redactor, budgetBytes);
            }
            try (InputStream in = sessions.open(thread)) {
                return renderer.render(thread.rolloutPath().toString(), in, redactor, budgetBytes);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
