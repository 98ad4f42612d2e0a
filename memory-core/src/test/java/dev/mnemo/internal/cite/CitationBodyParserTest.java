package dev.mnemo.internal.cite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.CitationEntry;
import dev.mnemo.Citations;
import dev.mnemo.MemoryCitation;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Ports Codex's {@code citations_tests.rs} and checks the line rules of read sheet §3.4. */
class CitationBodyParserTest {

    private static final String FIRST = "019c6e27-e55b-73d1-87d8-4e01f1f75043";
    private static final String SECOND = "019c6e28-0000-7aaa-8bbb-123456789abc";

    @Test
    void parse_supportsLegacyThreadIds() {
        String body = "<memory_citation>\n<citation_entries>\nMEMORY.md:1-2|note=[x]\n</citation_entries>\n"
                + "<thread_ids>\n" + FIRST + "\nnot-a-uuid\n" + SECOND + "\n</thread_ids>\n</memory_citation>";

        MemoryCitation parsed = Citations.parse(List.of(body)).orElseThrow();

        assertThat(parsed.rolloutIds()).containsExactly(FIRST, "not-a-uuid", SECOND);
        assertThat(CitationUsage.usageIds(parsed)).containsExactly(FIRST, "not-a-uuid", SECOND);
    }

    @Test
    void parse_supportsRolloutIdsWithoutEntries() {
        String body = "<memory_citation>\n<rollout_ids>\n" + FIRST + "\n</rollout_ids>\n</memory_citation>";

        MemoryCitation parsed = Citations.parse(List.of(body)).orElseThrow();

        assertThat(parsed.entries()).isEmpty();
        assertThat(CitationUsage.usageIds(parsed)).containsExactly(FIRST);
    }

    @Test
    void parse_extractsEntriesAndDeduplicatesRolloutIds() {
        String body = "<citation_entries>\nMEMORY.md:1-2|note=[summary]\nrollout_summaries/foo.md:10-12|note=[details]\n"
                + "</citation_entries>\n<rollout_ids>\n" + FIRST + "\n" + SECOND + "\n" + FIRST + "\n</rollout_ids>";

        MemoryCitation parsed = Citations.parse(List.of(body)).orElseThrow();

        assertThat(parsed.entries()).containsExactly(
                new CitationEntry("MEMORY.md", 1, 2, "summary"),
                new CitationEntry("rollout_summaries/foo.md", 10, 12, "details"));
        assertThat(parsed.rolloutIds()).containsExactly(FIRST, SECOND);
    }

    @Test
    void parse_mergesBlocksAndDeduplicatesIdsAcrossThem() {
        String one = "<citation_entries>\nMEMORY.md:1-1|note=[a]\n</citation_entries>\n<rollout_ids>\nb\na\n</rollout_ids>";
        String two = "<citation_entries>\nMEMORY.md:1-1|note=[a]\n</citation_entries>\n<rollout_ids>\na\nc\n</rollout_ids>";

        MemoryCitation parsed = Citations.parse(List.of(one, two)).orElseThrow();

        assertThat(parsed.entries()).hasSize(2);
        assertThat(parsed.rolloutIds()).containsExactly("b", "a", "c");
    }

    @Test
    void parse_isEmptyWhenNoEntryAndNoId() {
        assertThat(Citations.parse(List.of("doc1"))).isEmpty();
        assertThat(Citations.parse(List.of("<rollout_ids>\n\n</rollout_ids>"))).isEmpty();
        assertThat(Citations.parse(List.of())).isEmpty();
    }

    @Test
    void parse_prefersRolloutIdsAndFallsBackToThreadIdsWhenUnclosed() {
        String both = "<rollout_ids>\nr\n</rollout_ids><thread_ids>\nt\n</thread_ids>";
        String unclosed = "<rollout_ids>\nr\n<thread_ids>\nt\n</thread_ids>";

        assertThat(Citations.parse(List.of(both)).orElseThrow().rolloutIds()).containsExactly("r");
        assertThat(Citations.parse(List.of(unclosed)).orElseThrow().rolloutIds()).containsExactly("t");
    }

    @Test
    void parse_ignoresEntriesWhoseBlockIsUnclosed() {
        assertThat(Citations.parse(List.of("<citation_entries>\nMEMORY.md:1-2|note=[x]\n"))).isEmpty();
    }

    @Test
    void entry_splitsAtLastNoteMarkerAndLastColon() {
        assertThat(CitationBodyParser.parseEntry("C:\\x.md:1-2|note=[n]"))
                .contains(new CitationEntry("C:\\x.md", 1, 2, "n"));
        assertThat(CitationBodyParser.parseEntry("  a.md : 3 - 9 |note=[ a|b [c] ]  "))
                .contains(new CitationEntry("a.md", 3, 9, "a|b [c]"));
        assertThat(CitationBodyParser.parseEntry("a.md:1-2|note=[x]|note=[y]"))
                .isEmpty(); // the location part "a.md:1-2|note=[x]" has no valid range
        assertThat(CitationBodyParser.parseEntry("a.md:9-3|note=[backwards]"))
                .contains(new CitationEntry("a.md", 9, 3, "backwards"));
    }

    @Test
    void entry_dropsLinesThatDoNotFitTheFormat() {
        assertThat(CitationBodyParser.parseEntry("file.md:12|note=[x]")).isEmpty();
        assertThat(CitationBodyParser.parseEntry("file.md:-1-2|note=[x]")).isEmpty();
        assertThat(CitationBodyParser.parseEntry("file.md:1-2|note=[x")).isEmpty();
        assertThat(CitationBodyParser.parseEntry("file.md:1-2")).isEmpty();
        assertThat(CitationBodyParser.parseEntry("file.md 1-2|note=[x]")).isEmpty();
        assertThat(CitationBodyParser.parseEntry("file.md:1-4294967296|note=[x]")).isEmpty();
        assertThat(CitationBodyParser.parseEntry("file.md:a-2|note=[x]")).isEmpty();
    }

    @Test
    void parse_keepsGoodLinesAndDropsBadOnes() {
        String body = "<citation_entries>\n\nbad line\nMEMORY.md:4-5|note=[kept]\r\nx.md:1|note=[no end]\n"
                + "</citation_entries>";

        Optional<MemoryCitation> parsed = Citations.parse(List.of(body));

        assertThat(parsed).map(MemoryCitation::entries).contains(List.of(new CitationEntry("MEMORY.md", 4, 5, "kept")));
    }
}
