package dev.mnemo.internal.cite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.CitationStreamFilter;
import dev.mnemo.Citations;
import dev.mnemo.StrippedText;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * For seeded random answers full of whole, split, partial and unclosed citation tags, feeding the
 * stream filter chunks of every size from 1 to the text length gives what {@link Citations#strip}
 * gives for the whole text.
 */
class CitationStreamPropertyTest {

    private static final String[] PIECES = {
        "<oai-mem-citation>", "</oai-mem-citation>", "<oai-mem-", "</oai-mem-cit", "<", "</", "<oai",
        "<citation_entries>\nMEMORY.md:1-2|note=[x]\n</citation_entries>", "<rollout_ids>\n", "\n",
        "hello ", "w\u00f6rld", "\u4e2d", "\uD83D\uDE00", "-", ">", "oai-mem-citation>", " ", "<<oai-mem-citation>",
    };

    @Test
    void streamFilter_matchesStripForEveryChunkSize() {
        Random random = new Random(20260614L);
        for (int sample = 0; sample < 150; sample++) {
            String text = randomText(random);
            StrippedText whole = Citations.strip(text);
            for (int size = 1; size <= text.length(); size++) {
                StrippedText streamed = streamInChunks(text, size);
                assertThat(streamed)
                        .as("sample %d, chunk size %d, text %s", sample, size, text)
                        .isEqualTo(whole);
            }
        }
    }

    @Test
    void streamFilter_neverShowsAnyPartOfACompleteBlock() {
        Random random = new Random(7L);
        for (int sample = 0; sample < 100; sample++) {
            String secret = "secret-" + sample;
            String text = "before <oai-mem-citation>" + secret
                    + "</oai-mem-citation> after";
            int size = 1 + random.nextInt(text.length());
            CitationStreamFilter filter = Citations.streamFilter();
            StringBuilder visible = new StringBuilder();
            for (int i = 0; i < text.length(); i += size) {
                visible.append(filter.push(text.substring(i, Math.min(text.length(), i + size))));
                assertThat(visible.toString()).doesNotContain("<oai-mem-citation").doesNotContain(secret);
            }
            visible.append(filter.finish());
            assertThat(visible.toString()).isEqualTo("before  after");
        }
    }

    private static StrippedText streamInChunks(String text, int size) {
        CitationStreamFilter filter = Citations.streamFilter();
        StringBuilder visible = new StringBuilder();
        for (int i = 0; i < text.length(); i += size) {
            visible.append(filter.push(text.substring(i, Math.min(text.length(), i + size))));
        }
        visible.append(filter.finish());
        return new StrippedText(visible.toString(), filter.bodies());
    }

    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        int pieces = 1 + random.nextInt(12);
        for (int i = 0; i < pieces; i++) {
            text.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return text.toString();
    }
}
