package dev.mnemo.internal.rollout;

import java.util.Locale;

/**
 * Recognises the text Codex injects into user messages that the user did not type: AGENTS.md
 * instructions, skill bodies, user instructions, environment context and similar harness
 * fragments. Comparisons trim the text and ignore case (write sheet §4.3).
 */
public final class ContextualFragments {

    /** The marker the IDE extension puts before the user's own words. */
    static final String IDE_REQUEST_MARKER = "## My request for Codex:";

    /** Opening and closing marker of each fragment kept out of memory (also read by tests). */
    static final String[][] MEMORY_EXCLUDED = {
        {"# agents.md instructions", "</instructions>"},
        {"<skill>", "</skill>"},
        {"<user_instructions>", "</user_instructions>"},
    };

    /** Opening and closing marker of each fragment the harness injects (also read by tests). */
    static final String[][] HARNESS = {
        {"<environment_context>", "</environment_context>"},
        {"<subagent_notification>", "</subagent_notification>"},
        {"<user_shell_command>", "</user_shell_command>"},
        {"<turn_aborted>", "</turn_aborted>"},
    };

    private ContextualFragments() {}

    /**
     * A fragment that never reaches the extraction model: AGENTS.md instructions, a
     * {@code <skill>} body or {@code <user_instructions>}.
     */
    public static boolean isMemoryExcluded(String text) {
        return matchesAny(text, MEMORY_EXCLUDED);
    }

    /**
     * Harness context that is kept for extraction but is not something the user said:
     * {@code <environment_context>}, {@code <subagent_notification>} and similar.
     */
    public static boolean isHarnessContext(String text) {
        return matchesAny(text, HARNESS);
    }

    /** Text the user actually wrote: not blank, not excluded, not harness context. */
    public static boolean isRealUserText(String text) {
        return !text.isBlank() && !isMemoryExcluded(text) && !isHarnessContext(text);
    }

    /**
     * The user's own words for a preview: for a message from Codex's IDE extension, the part after
     * {@value #IDE_REQUEST_MARKER}; otherwise the trimmed text.
     */
    public static String previewText(String text) {
        int marker = text.indexOf(IDE_REQUEST_MARKER);
        String own = marker >= 0 ? text.substring(marker + IDE_REQUEST_MARKER.length()) : text;
        return own.strip();
    }

    /**
     * Whether the stripped, lower-cased text starts and ends with one of the fragments (ASCII,
     * lower case). Only the text's ends are lower-cased: Java lower-cases a text char by char into
     * one or more chars each (Greek capital sigma, whose form depends on its neighbours, is never
     * ASCII either way), so the first and last {@code n} chars of the lower-cased text come from the
     * first and last {@code n} chars of the text, and a user message can be 100 KB.
     */
    private static boolean matchesAny(String text, String[][] fragments) {
        String t = text.strip();
        for (String[] fragment : fragments) {
            if (lowerCasedEnd(t, fragment[0].length(), true).startsWith(fragment[0])
                    && lowerCasedEnd(t, fragment[1].length(), false).endsWith(fragment[1])) {
                return true;
            }
        }
        return false;
    }

    /** The first ({@code head}) or last {@code chars} chars of {@code t}, lower-cased. */
    private static String lowerCasedEnd(String t, int chars, boolean head) {
        int n = Math.min(chars, t.length());
        return (head ? t.substring(0, n) : t.substring(t.length() - n)).toLowerCase(Locale.ROOT);
    }
}
