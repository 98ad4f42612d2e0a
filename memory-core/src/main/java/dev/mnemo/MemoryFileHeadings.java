package dev.mnemo;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines by which the memory folder's files name the conversations they came from, for tools
 * that read the folder (a console linking a file to its provenance, a script listing sources). Phase 2
 * writes them, in Codex's formats:
 * <ul>
 *   <li>a rollout summary ({@code rollout_summaries/<stem>.md}) opens with the header line
 *       {@code thread_id: <id>};</li>
 *   <li>{@code raw_memories.md} heads each conversation's raw memory with {@code ## Thread `<id>`}.</li>
 * </ul>
 * These constants are the one home of that format: the writer uses them, and {@link #parse(String)}
 * reads them back. A heading counts only as a whole line; an id in a {@code thread_id:} line has no
 * white space, one in a {@code ## Thread} heading no backquote.
 */
public final class MemoryFileHeadings {

    /** What starts a rollout summary's header line naming its conversation: {@code thread_id: }. */
    public static final String THREAD_ID_PREFIX = "thread_id: ";
    /** What starts a raw memory's heading in {@code raw_memories.md}: {@code ## Thread `}. */
    public static final String THREAD_HEADING_PREFIX = "## Thread `";
    /** What ends a raw memory's heading in {@code raw_memories.md}: a backquote. */
    public static final String THREAD_HEADING_SUFFIX = "`";

    private static final Pattern HEADINGS = Pattern.compile("(?m)^" + Pattern.quote(THREAD_ID_PREFIX) + "(\\S+)$|^"
            + Pattern.quote(THREAD_HEADING_PREFIX) + "([^`]+)" + Pattern.quote(THREAD_HEADING_SUFFIX) + "$");

    private MemoryFileHeadings() {}

    /** Which of the two lines named a conversation. */
    public enum Kind {
        /** A rollout summary's {@code thread_id: <id>} header line. */
        ROLLOUT_SUMMARY,
        /** A {@code raw_memories.md} heading, {@code ## Thread `<id>`}. */
        RAW_MEMORY
    }

    /**
     * One line naming a conversation.
     *
     * @param kind which line it was
     * @param threadId the conversation's thread id as the line gives it
     */
    public record ThreadHeading(Kind kind, String threadId) {
        /**
         * Checks that both parts are there.
         *
         * @param kind which line it was
         * @param threadId the conversation's thread id as the line gives it
         * @throws NullPointerException when either is null
         */
        public ThreadHeading {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(threadId, "threadId");
        }
    }

    /**
     * The header line of a rollout summary for {@code threadId}, without its line break.
     *
     * @param threadId the conversation's thread id
     * @return {@code thread_id: } followed by the id
     * @throws NullPointerException when {@code threadId} is null
     */
    public static String threadIdLine(String threadId) {
        return THREAD_ID_PREFIX + Objects.requireNonNull(threadId, "threadId");
    }

    /**
     * The heading of {@code threadId}'s entry in {@code raw_memories.md}, without its line break.
     *
     * @param threadId the conversation's thread id
     * @return {@code ## Thread `} followed by the id and a backquote
     * @throws NullPointerException when {@code threadId} is null
     */
    public static String threadHeading(String threadId) {
        return THREAD_HEADING_PREFIX + Objects.requireNonNull(threadId, "threadId") + THREAD_HEADING_SUFFIX;
    }

    /**
     * Every line of {@code content} that names a conversation, in the order they stand.
     *
     * @param content the text of a memory folder file
     * @return the headings found, unmodifiable; empty when none
     * @throws NullPointerException when {@code content} is null
     */
    public static List<ThreadHeading> parse(String content) {
        Objects.requireNonNull(content, "content");
        List<ThreadHeading> headings = new ArrayList<>();
        Matcher matcher = HEADINGS.matcher(content);
        while (matcher.find()) {
            headings.add(matcher.group(1) != null ? new ThreadHeading(Kind.ROLLOUT_SUMMARY, matcher.group(1))
                    : new ThreadHeading(Kind.RAW_MEMORY, matcher.group(2)));
        }
        return List.copyOf(headings);
    }
}
