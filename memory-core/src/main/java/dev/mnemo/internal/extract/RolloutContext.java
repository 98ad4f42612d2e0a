package dev.mnemo.internal.extract;

/**
 * What every extraction request of one rollout tells the model besides its rows: the rollout's
 * name for the model, its working folder and the thread's goal ({@link GoalContext}).
 */
record RolloutContext(String rolloutPath, String cwd, String goal) {

    /** Bytes the system prompt and the input template take besides the rendered rows. */
    long overheadBytes() {
        return Phase1Request.overheadBytes(rolloutPath, cwd, goal);
    }

    /** Bytes the system prompt and the merge template take besides the partial memories. */
    long mergeOverheadBytes() {
        return Phase1Prompts.SYSTEM_BYTES + Phase1Prompts.mergeTemplateBytes() + Utf8Text.size(rolloutPath)
                + Utf8Text.size(cwd) + Utf8Text.size(goal);
    }

    /** The extraction message for {@code contents}. */
    String input(String contents) {
        return Phase1Prompts.input(rolloutPath, cwd, goal, contents);
    }

    /** The merge message for the partial memories of {@code partCount} parts. */
    String mergeInput(int partCount, String partials) {
        return Phase1Prompts.mergeInput(rolloutPath, cwd, goal, partCount, partials);
    }
}
