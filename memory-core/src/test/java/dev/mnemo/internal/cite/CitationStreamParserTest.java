package dev.mnemo.internal.cite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.CitationStreamFilter;
import dev.mnemo.Citations;
import dev.mnemo.StrippedText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ports Codex's stream-parser citation tests (read sheet §7.3, items 52–58) to the Java filter. */
class CitationStreamParserTest {

    private static StrippedText collect(CitationStreamFilter filter, String... chunks) {
        StringBuilder visible = new StringBuilder();
        for (String chunk : chunks) {
            visible.append(filter.push(chunk));
        }
        visible.append(filter.finish());
        return new StrippedText(visible.toString(), filter.bodies());
    }

    @Test
    void streamsAcrossChunkBoundaries() {
        StrippedText out = collect(Citations.streamFilter(),
                "Hello <oai-mem-", "citation>source A</oai-mem-", "citation> world");

        assertThat(out.visibleText()).isEqualTo("Hello  world");
        assertThat(out.bodies()).containsExactly("source A");
    }

    @Test
    void buffersPartialOpenTagPrefix() {
        CitationStreamFilter filter = Citations.streamFilter();

        assertThat(filter.push("abc <oai-mem-")).isEqualTo("abc ");
        assertThat(filter.bodies()).isEmpty();
        assertThat(filter.push("citation>x</oai-mem-citation>z")).isEqualTo("z");
        assertThat(filter.bodies()).containsExactly("x");
        assertThat(filter.finish()).isEmpty();
    }

    @Test
    void autoClosesUnterminatedTagOnFinish() {
        StrippedText out = collect(Citations.streamFilter(), "x<oai-mem-citation>source");

        assertThat(out.visibleText()).isEqualTo("x");
        assertThat(out.bodies()).containsExactly("source");
    }

    @Test
    void preservesPartialOpenTagAtEndWhenItNeverBecameATag() {
        StrippedText out = collect(Citations.streamFilter(), "hello <oai-mem-");

        assertThat(out.visibleText()).isEqualTo("hello <oai-mem-");
        assertThat(out.bodies()).isEmpty();
    }

    @Test
    void strip_collectsAllCitations() {
        StrippedText out = Citations.strip(
                "a<oai-mem-citation>one</oai-mem-citation>b<oai-mem-citation>two</oai-mem-citation>c");

        assertThat(out.visibleText()).isEqualTo("abc");
        assertThat(out.bodies()).containsExactly("one", "two");
    }

    @Test
    void strip_autoClosesUnterminatedCitationAtEnd() {
        StrippedText out = Citations.strip("answer<oai-mem-citation>MEMORY.md:1-2|note=[x]");

        assertThat(out.visibleText()).isEqualTo("answer");
        assertThat(out.bodies()).containsExactly("MEMORY.md:1-2|note=[x]");
    }

    @Test
    void doesNotSupportNestedTags() {
        StrippedText out = Citations.strip(
                "a<oai-mem-citation>x<oai-mem-citation>y</oai-mem-citation>z</oai-mem-citation>b");

        assertThat(out.visibleText()).isEqualTo("az</oai-mem-citation>b");
        assertThat(out.bodies()).containsExactly("x<oai-mem-citation>y");
    }

    @Test
    void tagsAreCaseSensitive() {
        StrippedText out = Citations.strip("a<OAI-MEM-CITATION>b</OAI-MEM-CITATION>c");

        assertThat(out.visibleText()).isEqualTo("a<OAI-MEM-CITATION>b</OAI-MEM-CITATION>c");
        assertThat(out.bodies()).isEmpty();
    }

    @Test
    void partialCloseTagInsideBlockIsBody() {
        StrippedText out = collect(Citations.streamFilter(),
                "<oai-mem-citation>a</oai-mem", "-x</oai-mem-citation>tail");

        assertThat(out.visibleText()).isEqualTo("tail");
        assertThat(out.bodies()).containsExactly("a</oai-mem-x");
    }

    @Test
    void keepsSurrogatePairSplitAcrossChunksTogether() {
        String emoji = "\uD83D\uDE00";
        CitationStreamFilter filter = Citations.streamFilter();

        assertThat(filter.push("A\uD83D")).isEqualTo("A");
        assertThat(filter.push("\uDE00<oai-mem-citation>\u4E2D</oai-mem-citation>Z")).isEqualTo(emoji + "Z");
        assertThat(filter.finish()).isEmpty();
        assertThat(filter.bodies()).containsExactly("\u4E2D");
    }

    @Test
    void citationOnlyMessageLeavesNoVisibleText() {
        StrippedText out = Citations.strip("<oai-mem-citation>\n<rollout_ids>\n</rollout_ids>\n</oai-mem-citation>");

        assertThat(out.visibleText()).isEmpty();
        assertThat(out.bodies()).containsExactly("\n<rollout_ids>\n</rollout_ids>\n");
    }

    @Test
    void pushAfterFinishIsRejected() {
        CitationStreamFilter filter = Citations.streamFilter();
        filter.finish();

        assertThatThrownBy(() -> filter.push("late")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("push after finish()");
        assertThat(filter.finish()).isEmpty();
    }

    @Test
    void bodiesAreASnapshot() {
        CitationStreamFilter filter = Citations.streamFilter();
        filter.push("<oai-mem-citation>one</oai-mem-citation>");
        List<String> early = filter.bodies();
        filter.push("<oai-mem-citation>two</oai-mem-citation>");

        assertThat(early).containsExactly("one");
        assertThat(filter.bodies()).containsExactly("one", "two");
    }
}
