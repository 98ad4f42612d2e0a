package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.mnemo.MemoryFileHeadings.Kind;
import dev.mnemo.MemoryFileHeadings.ThreadHeading;
import org.junit.jupiter.api.Test;

/** What counts as a line naming a conversation in the memory folder's files. */
class MemoryFileHeadingsTest {

    @Test
    void parse_findsBothKindsOfLine_inTheOrderTheyStand_withRepeats() {
        String content = "# Raw Memories\n\n## Thread `t-2`\nthread_id: t-1\nbody\n## Thread `t-2`\n";

        assertThat(MemoryFileHeadings.parse(content)).containsExactly(new ThreadHeading(Kind.RAW_MEMORY, "t-2"),
                new ThreadHeading(Kind.ROLLOUT_SUMMARY, "t-1"), new ThreadHeading(Kind.RAW_MEMORY, "t-2"));
    }

    @Test
    void parse_takesOnlyWholeLines() {
        String content = "see thread_id: t-1\nthread_id: two words\n## Thread `t-3` and more\n  ## Thread `t-4`\n"
                + "thread_id: \n## Thread ``\n";

        assertThat(MemoryFileHeadings.parse(content)).isEmpty();
    }

    @Test
    void parse_readsWhatTheRenderersWrite() {
        String content = MemoryFileHeadings.threadIdLine("chat:42") + "\n\n"
                + MemoryFileHeadings.threadHeading("0194f5a6-89ab-7cde-8123-456789abcdef") + "\r\n";

        assertThat(MemoryFileHeadings.parse(content)).containsExactly(new ThreadHeading(Kind.ROLLOUT_SUMMARY, "chat:42"),
                new ThreadHeading(Kind.RAW_MEMORY, "0194f5a6-89ab-7cde-8123-456789abcdef"));
    }

    @Test
    void renderers_writeCodexLines() {
        assertThat(MemoryFileHeadings.threadIdLine("t-1")).isEqualTo("thread_id: t-1");
        assertThat(MemoryFileHeadings.threadHeading("t-1")).isEqualTo("## Thread `t-1`");
    }

    @Test
    void nullContent_failsNamingIt() {
        assertThatNullPointerException().isThrownBy(() -> MemoryFileHeadings.parse(null)).withMessage("content");
    }
}
