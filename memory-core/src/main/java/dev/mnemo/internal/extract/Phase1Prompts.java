package dev.mnemo.internal.extract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The Phase 1 templates ({@code stage_one_system.md}, {@code stage_one_input.md}, and for a
 * session read in parts {@code stage_one_part.md} and {@code stage_one_merge_input.md}), loaded once.
 */
final class Phase1Prompts {

    static final String SYSTEM = load("stage_one_system.md");
    private static final String INPUT = load("stage_one_input.md");
    private static final String PART = load("stage_one_part.md");
    private static final String MERGE = load("stage_one_merge_input.md");

    /** UTF-8 size of {@link #SYSTEM}. */
    static final long SYSTEM_BYTES = Utf8Text.size(SYSTEM);

    /** Bytes the input template adds around the rendered conversation (paths excluded). */
    static final int INPUT_TEMPLATE_BYTES = INPUT.getBytes(StandardCharsets.UTF_8).length;

    private Phase1Prompts() {}

    /**
     * The user message: the template with the rollout's path, working folder, the thread's goal
     * ({@link GoalContext}) and rendered items.
     */
    static String input(String rolloutPath, String rolloutCwd, String threadGoal, String renderedRollout) {
        // Contents last, so text inside the rollout can never be mistaken for a placeholder.
        return INPUT.replace("{{ rollout_path }}", rolloutPath)
                .replace("{{ rollout_cwd }}", rolloutCwd)
                .replace("{{ thread_goal }}", threadGoal)
                .replace("{{ rollout_contents }}", renderedRollout);
    }

    /**
     * The note before a part's rows: which part of how many, and which rows (1-based) of
     * {@code rowCount} it holds.
     */
    static String partNote(int part, int parts, int firstRow, int lastRow, int rowCount) {
        return PART.replace("{{ part }}", Integer.toString(part))
                .replace("{{ parts }}", Integer.toString(parts))
                .replace("{{ first_row }}", Integer.toString(firstRow))
                .replace("{{ last_row }}", Integer.toString(lastRow))
                .replace("{{ row_count }}", Integer.toString(rowCount));
    }

    /** The largest size {@link #partNote} can have for a session of {@code rowCount} rows. */
    static long partNoteBytes(int rowCount) {
        return Utf8Text.size(partNote(rowCount, rowCount, rowCount, rowCount, rowCount));
    }

    /** Bytes the merge template adds around the partial memories (paths excluded). */
    static long mergeTemplateBytes() {
        return Utf8Text.size(MERGE);
    }

    /** The merge request's message: the partial memories of {@code partCount} parts, in session order. */
    static String mergeInput(String rolloutPath, String rolloutCwd, String threadGoal, int partCount,
            String partialMemories) {
        return MERGE.replace("{{ rollout_path }}", rolloutPath)
                .replace("{{ rollout_cwd }}", rolloutCwd)
                .replace("{{ thread_goal }}", threadGoal)
                .replace("{{ part_count }}", Integer.toString(partCount))
                .replace("{{ partial_memories }}", partialMemories);
    }

    /** The follow-up after a reply that did not parse. */
    static String retry(String problem) {
        return "Your reply could not be used: " + problem + ". Answer again with exactly one JSON object "
                + "with the keys rollout_summary, rollout_slug and raw_memory, and nothing else.";
    }

    private static String load(String name) {
        try (InputStream in = Phase1Prompts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " next to " + Phase1Prompts.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + name, e);
        }
    }
}
