package dev.mnemo.internal.extract;

import java.io.IOException;
import java.nio.file.Path;

/** Turns a rollout file into the filtered, redacted conversation text Phase 1 sends, within a byte budget. */
@FunctionalInterface
public interface RolloutInput {

    /**
     * @param budgetBytes the most UTF-8 bytes the result may have
     * @throws IOException when the rollout cannot be read
     */
    String render(Path rolloutPath, long budgetBytes) throws IOException;
}
