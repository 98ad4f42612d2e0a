package dev.mnemo.internal.extract;

import dev.mnemo.ThreadInfo;
import java.io.IOException;

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
}
