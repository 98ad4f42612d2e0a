package dev.mnemo.internal.cite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.StrippedText;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The stream filter's fast paths against two oracles: a one-shot strip written independently here
 * (the final text and bodies) and the round-one filter (what every single push returns), for tags
 * split at every position, {@code <} at and near chunk ends, nested and unterminated blocks, and
 * random chunkings.
 */
class CitationStreamChunkingTest {

    private static final String OPEN = CitationStreamParser.OPEN_TAG;
    private static final String CLOSE = CitationStreamParser.CLOSE_TAG;

    /** Text where every kind of tag and near-tag meets every kind of plain text. */
    private static final String TRICKY = "a <b>bold</b> <" + OPEN + "x<y" + OPEN + "nested" + CLOSE + " out </" + CLOSE
            + "<oai-mem-citatio>" + "</oai-mem-citation" + OPEN + "<<" + "</oai-mem-citatio" + CLOSE + "\uD83D\uDE00<"
            + OPEN + "unterminated </oai";

    private static final String[] PIECES = {
        OPEN, CLOSE, "<oai-mem-", "</oai-mem-cit", "<", "</", "<<", "<o", "<b>", "</b>", "text ", "\n", "\u00e9",
        "\uD83D\uDE00", "\uD83D", ">", "oai-mem-citation>", "</oai-mem-citation", "<oai-mem-citation",
    };

    @Test
    void push_returnsAChunkWithNothingToHideAsTheSameString() {
        CitationStreamParser parser = new CitationStreamParser();
        String plain = "no tag start in here at all";
        String htmlLike = "isolate the temp folder <b>per test</b>; see <i>step</i> 4";

        assertThat(parser.push(plain)).isSameAs(plain);
        assertThat(parser.push(htmlLike)).isSameAs(htmlLike);
        assertThat(parser.push(plain)).isSameAs(plain);
    }

    @Test
    void push_holdsBackOnlyASuffixThatMayStillBecomeATag() {
        CitationStreamParser parser = new CitationStreamParser();

        assertThat(parser.push("see <b")).isEqualTo("see <b");
        assertThat(parser.push("a <oai-mem")).isEqualTo("a ");
        assertThat(parser.push("-x <")).isEqualTo("<oai-mem-x ");
        assertThat(parser.push(OPEN.substring(1) + "body </b </oai")).isEmpty();
        assertThat(parser.push("-mem-citation>after")).isEqualTo("after");
        assertThat(parser.finish()).isEmpty();
        assertThat(parser.bodies()).containsExactly("body </b ");
    }

    @Test
    void push_returnsOnlyAChunkWithNothingToHoldBackAsItIs() {
        CitationStreamParser parser = new CitationStreamParser();

        assertThat(parser.push("an <ol> list")).isEqualTo("an <ol> list"); // "<o", but no opener
        assertThat(parser.push("a pair cut \uD83D")).isEqualTo("a pair cut ");
        assertThat(parser.push("\uDE00 whole")).isEqualTo("\uD83D\uDE00 whole");
        assertThat(parser.push("ends in <")).isEqualTo("ends in ");
        assertThat(parser.push("b> then <o")).isEqualTo("<b> then ");
        assertThat(parser.push("l>")).isEqualTo("<ol>");
        assertThat(parser.push("")).isEmpty();
        assertThat(parser.finish()).isEmpty();
        assertThat(parser.bodies()).isEmpty();
    }

    @Test
    void push_holdsBackPartialCloserAcrossChunks() {
        CitationStreamParser parser = new CitationStreamParser();

        assertThat(parser.push("a" + OPEN + "x</rollout_ids>\n</")).isEqualTo("a");
        assertThat(parser.push("oai-mem-cit")).isEmpty();
        assertThat(parser.push("ation>b <")).isEqualTo("b ");
        assertThat(parser.push("/b>")).isEqualTo("</b>");
        assertThat(parser.finish()).isEmpty();
        assertThat(parser.bodies()).containsExactly("x</rollout_ids>\n");
    }

    @Test
    void push_keepsBodyMarkupAndCutCloserLookalikesInTheBody() {
        CitationStreamParser parser = new CitationStreamParser();

        assertThat(parser.push(OPEN + "<citation_entries>\n</citation_entries></")).isEmpty();
        assertThat(parser.push("</oai-mem-citatio")).isEmpty();
        assertThat(parser.push("n </oai-mem-citation")).isEmpty();
        assertThat(parser.push("\uD83D")).isEmpty();
        assertThat(parser.push("\uDE00" + CLOSE)).isEmpty();
        assertThat(parser.finish()).isEmpty();
        assertThat(parser.bodies()).containsExactly(
                "<citation_entries>\n</citation_entries></</oai-mem-citation </oai-mem-citation\uD83D\uDE00");
    }

    @Test
    void push_collectsBodiesWholeInOneChunkOrStartedInAnEarlierOne() {
        CitationStreamParser parser = new CitationStreamParser();

        assertThat(parser.push("a" + OPEN)).isEqualTo("a");
        assertThat(parser.push("")).isEmpty();
        assertThat(parser.push("one" + CLOSE + "b" + OPEN + CLOSE + "c" + OPEN + "two")).isEqualTo("bc");
        assertThat(parser.push(CLOSE + OPEN + "three" + CLOSE)).isEmpty();
        assertThat(parser.push("d" + OPEN + "four")).isEqualTo("d");
        assertThat(parser.finish()).isEmpty();
        assertThat(parser.bodies()).containsExactly("one", "", "two", "three", "four");
    }

    @Test
    void streamFilter_matchesOneShotStripForCloserSplitAtEveryPositionAmidBodyMarkup() {
        String text = "v" + OPEN + "\n<citation_entries>\nMEMORY.md:1-4|note=[x]\n</citation_entries>\n<rollout_ids>\n"
                + "</rollout_ids></oai-mem</oai-mem-citation <" + "\uD83D\uDE00" + CLOSE + "w<";
        assertEveryThreeWaySplitSameAsOracles(text);
    }

    @Test
    void streamFilter_matchesOneShotStripForTagsSplitAtEveryPosition() {
        for (int cut = 0; cut <= TRICKY.length(); cut++) {
            assertSameAsOracles(List.of(TRICKY.substring(0, cut), TRICKY.substring(cut)));
        }
    }

    @Test
    void streamFilter_matchesOneShotStripForEveryThreeWaySplitOfATag() {
        String text = "x" + OPEN + "body</b>" + CLOSE + "y" + OPEN.substring(0, 9);
        assertEveryThreeWaySplitSameAsOracles(text);
    }

    @Test
    void streamFilter_matchesOneShotStripForRandomChunkingsOfRandomText() {
        Random random = new Random(17L);
        for (int sample = 0; sample < 2_000; sample++) {
            StringBuilder text = new StringBuilder();
            for (int piece = random.nextInt(25); piece >= 0; piece--) {
                text.append(PIECES[random.nextInt(PIECES.length)]);
            }
            assertSameAsOracles(randomChunks(text.toString(), random));
        }
    }

    @Test
    void streamFilter_matchesOneShotStripForLongAnswersInSmallChunks() {
        Random random = new Random(64L);
        StringBuilder answers = new StringBuilder();
        for (int block = 0; block < 20; block++) {
            for (int line = random.nextInt(5); line >= 0; line--) {
                answers.append("The fix is to isolate the temp folder <b>per test</b>; see step ")
                        .append(random.nextInt(1000)).append(".\n");
            }
            answers.append(OPEN).append("\n<citation_entries>\nMEMORY.md:1-4|note=[build fix]\n")
                    .append("</citation_entries>\n<rollout_ids>\n0199812e-64f0-7f73-91fc-095dda01c36e\n")
                    .append("</rollout_ids>\n").append(CLOSE).append('\n');
        }
        String text = answers.toString();
        for (int size = 1; size <= 80; size++) {
            List<String> chunks = new ArrayList<>();
            for (int i = 0; i < text.length(); i += size) {
                chunks.add(text.substring(i, Math.min(text.length(), i + size)));
            }
            assertSameAsOracles(chunks);
        }
    }

    /** Pushes {@code text} cut in three at every pair of positions, each time checked against both oracles. */
    private static void assertEveryThreeWaySplitSameAsOracles(String text) {
        for (int first = 0; first <= text.length(); first++) {
            for (int second = first; second <= text.length(); second++) {
                assertSameAsOracles(List.of(text.substring(0, first), text.substring(first, second),
                        text.substring(second)));
            }
        }
    }

    /** Feeds {@code chunks} to the filter and to the round-one filter; checks every push and the end. */
    private static void assertSameAsOracles(List<String> chunks) {
        String text = String.join("", chunks);
        CitationStreamParser parser = new CitationStreamParser();
        RoundOneCitationFilter roundOne = new RoundOneCitationFilter();
        StringBuilder visible = new StringBuilder();
        for (int i = 0; i < chunks.size(); i++) {
            String shown = parser.push(chunks.get(i));
            assertThat(shown).as("push %d of %s", i, chunks).isEqualTo(roundOne.push(chunks.get(i)));
            visible.append(shown);
        }
        String rest = parser.finish();
        assertThat(rest).as("finish of %s", chunks).isEqualTo(roundOne.finish());
        visible.append(rest);
        assertThat(new StrippedText(visible.toString(), parser.bodies())).as("chunks %s", chunks)
                .isEqualTo(oneShotStrip(text));
    }

    /** The specification in a few lines: blocks do not nest, an unterminated block runs to the end. */
    private static StrippedText oneShotStrip(String text) {
        StringBuilder visible = new StringBuilder();
        List<String> bodies = new ArrayList<>();
        int pos = 0;
        while (pos <= text.length()) {
            int open = text.indexOf(OPEN, pos);
            if (open < 0) {
                visible.append(text, pos, text.length());
                break;
            }
            visible.append(text, pos, open);
            int bodyStart = open + OPEN.length();
            int close = text.indexOf(CLOSE, bodyStart);
            if (close < 0) {
                bodies.add(text.substring(bodyStart));
                break;
            }
            bodies.add(text.substring(bodyStart, close));
            pos = close + CLOSE.length();
        }
        return new StrippedText(visible.toString(), bodies);
    }

    private static List<String> randomChunks(String text, Random random) {
        List<String> chunks = new ArrayList<>();
        int pos = 0;
        while (pos < text.length()) {
            int size = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(Math.min(text.length() - pos, 24));
            chunks.add(text.substring(pos, pos + size));
            pos += size;
        }
        return chunks;
    }
}
