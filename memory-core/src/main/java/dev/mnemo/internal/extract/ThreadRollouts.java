package dev.mnemo.internal.extract;

import dev.mnemo.TranscriptLine;
import dev.mnemo.internal.rollout.RolloutReader;
import dev.mnemo.internal.rollout.Transcript;
import java.util.List;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.spi.SessionStore;
import dev.mnemo.internal.read.ServerPaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Opens and renders the rollout of a thread: through the {@link SessionStore} when it holds it (a
 * session recorded here or on another server), else as the file its thread row names (Codex CLI's
 * sessions, a rollout registered by hand).
 */
public final class ThreadRollouts implements RolloutInput {

    private final SessionStore sessions;
    private final SecretRedactor redactor;
    private final RolloutRenderer renderer = new RolloutRenderer();
    /** The Mnemo home, absolute; null when unknown (every rollout is then named by its file alone). */
    private final Path home;

    public ThreadRollouts(SessionStore sessions, SecretRedactor redactor) {
        this(sessions, redactor, null);
    }

    /** @param home the Mnemo home: a rollout under it is named {@code <mnemo-home>/sessions/…} to the model */
    public ThreadRollouts(SessionStore sessions, SecretRedactor redactor, Path home) {
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        this.home = home == null ? null : home.toAbsolutePath().normalize();
    }

    /**
     * {@code <mnemo-home>/} and the path inside the home for a rollout under it (the sessions this
     * engine recorded); else the file name alone, under {@link RolloutInput#OUTSIDE_HOME}.
     */
    @Override
    public String pathForModel(ThreadInfo thread) {
        Path rollout = thread.rolloutPath().toAbsolutePath().normalize();
        if (home != null && rollout.startsWith(home) && !rollout.equals(home)) {
            StringBuilder inside = new StringBuilder(ServerPaths.HOME_PLACEHOLDER);
            for (Path part : home.relativize(rollout)) {
                inside.append('/').append(part);
            }
            return inside.toString();
        }
        return RolloutInput.super.pathForModel(thread);
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

    /**
     * {@inheritDoc}
     *
     * <p>A rollout that is no file here but the session store holds (in a database, in fleet mode)
     * is counted by reading it once: no store keeps its size, and the read costs little next to the
     * model call it sizes.
     */
    @Override
    public OptionalLong sizeBytes(ThreadInfo thread) {
        Objects.requireNonNull(thread, "thread");
        OptionalLong file = RolloutInput.super.sizeBytes(thread);
        if (file.isPresent() || !sessions.holds(thread)) {
            return file;
        }
        try (InputStream in = sessions.open(thread)) {
            return OptionalLong.of(in.transferTo(OutputStream.nullOutputStream()));
        } catch (IOException | UncheckedIOException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public RenderedRollout render(ThreadInfo thread, long budgetBytes) throws IOException {
        return RolloutRenderer.fit(thread.rolloutPath().toString(), rows(thread, budgetBytes), budgetBytes);
    }

    @Override
    public RolloutRows rows(ThreadInfo thread, long maxRowBytes) throws IOException {
        Objects.requireNonNull(thread, "thread");
        try {
            if (!sessions.holds(thread)) {
                return renderer.rows(thread.rolloutPath(), redactor, maxRowBytes);
            }
            try (InputStream in = sessions.open(thread)) {
                return renderer.rows(thread.rolloutPath().toString(), in, redactor, maxRowBytes);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
