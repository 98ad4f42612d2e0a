package dev.mnemo.internal.extract;

import dev.mnemo.ThreadInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The rollout of a thread, turned into the filtered, redacted conversation text Phase 1 sends
 * within a byte budget. {@link ThreadRollouts} is the engine's: a thread's rollout comes from the
 * session store that recorded it, or from its file.
 */
@FunctionalInterface
public interface RolloutInput {

    /**
     * @param budgetBytes the most UTF-8 bytes the result may have
     * @throws IOException when the rollout cannot be read
     */
    RenderedRollout render(ThreadInfo thread, long budgetBytes) throws IOException;

    /**
     * The rollout's filtered, redacted rows, none left out, each no larger than {@code maxRowBytes}:
     * what extraction splits into parts when the rollout does not fit one request. This default
     * has only the fitted text: the rows it returns are that text rendered into
     * {@code maxRowBytes} as one row, so an input that cannot give its rows is extracted in one part.
     *
     * @throws IOException when the rollout cannot be read
     */
    default RolloutRows rows(ThreadInfo thread, long maxRowBytes) throws IOException {
        RenderedRollout rendered = render(thread, maxRowBytes);
        return new RolloutRows(java.util.List.of(new Row(Row.Tier.HUMAN, rendered.text())), rendered.originalBytes(),
                rendered.truncated(), rendered.itemsDropped(), rendered.malformedLines());
    }

    /**
     * How the extraction input names the thread's rollout ({@code rollout_path}): never a path of
     * the server, which would tell the model provider how the server is laid out and whose folder
     * it is. This default names the file alone, under {@value #OUTSIDE_HOME}.
     */
    default String pathForModel(ThreadInfo thread) {
        return OUTSIDE_HOME + "/" + thread.rolloutPath().getFileName();
    }

    /**
     * The size in bytes of the thread's rollout as stored, for the daily extraction budget's
     * estimate of a job; empty when unknown. This default reads the size of the file its thread
     * row names, when there is one.
     */
    default OptionalLong sizeBytes(ThreadInfo thread) {
        Path file = thread.rolloutPath();
        try {
            return Files.isRegularFile(file) ? OptionalLong.of(Files.size(file)) : OptionalLong.empty();
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    /** What stands for the folder of a rollout kept outside the Mnemo home (Codex CLI's sessions, a file registered by hand). */
    String OUTSIDE_HOME = "<rollouts>";
}
