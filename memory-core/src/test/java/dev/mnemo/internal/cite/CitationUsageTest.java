package dev.mnemo.internal.cite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.AssistantMessage;
import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryCitation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Usage ids and the completed-message flow (read sheet §3.3, §3.6; tests 70–73). */
class CitationUsageTest {

    private static final String ID = "019c6e27-e55b-73d1-87d8-4e01f1f75043";

    @Test
    void usageIds_acceptsEveryUuidSpellingAndNormalisesIt() {
        MemoryCitation citation = new MemoryCitation(List.of(), List.of(
                "019C6E27-E55B-73D1-87D8-4E01F1F75043",
                "{019c6e27-e55b-73d1-87d8-4e01f1f75043}",
                "urn:uuid:019c6e27-e55b-73d1-87d8-4e01f1f75043",
                "019c6e27e55b73d187d84e01f1f75043",
                "0A9C6E27E55B73D187D84E01F1F75043",
                "not-a-uuid"));

        assertThat(CitationUsage.usageIds(citation))
                .containsExactly(ID, "0a9c6e27-e55b-73d1-87d8-4e01f1f75043", "not-a-uuid");
    }

    @Test
    void usageIds_keepsIdsThatAreNotUuidsVerbatim_soAnyThreadIdCanBeCounted() {
        MemoryCitation citation = new MemoryCitation(List.of(), List.of(
                "019c6e27-e55b-73d1-87d8-4e01f1f7504",       // one digit short: not a UUID, kept as written
                "URN:UUID:019c6e27-e55b-73d1-87d8-4e01f1f75043",
                "chat-42",
                "  user@example.com/7  ",
                "chat-42",                                    // once only
                "x".repeat(300)));

        assertThat(CitationUsage.usageIds(citation)).containsExactly(
                "019c6e27-e55b-73d1-87d8-4e01f1f7504",
                "URN:UUID:019c6e27-e55b-73d1-87d8-4e01f1f75043",
                "chat-42",
                "user@example.com/7",
                "x".repeat(300));
    }

    @Test
    void process_stripsParsesAndRecordsEachDistinctIdOnce() {
        List<List<String>> calls = new ArrayList<>();
        String text = "hello<oai-mem-citation>\n<citation_entries>\nMEMORY.md:1-2|note=[used it]\n</citation_entries>\n"
                + "<rollout_ids>\n" + ID + "\n{" + ID.toUpperCase() + "}\nnot-a-uuid\n</rollout_ids>\n"
                + "</oai-mem-citation> world";

        AssistantMessage message = CitationUsage.process(text, ids -> {
            calls.add(ids);
            return 1;
        });

        assertThat(message.visibleText()).isEqualTo("hello world");
        assertThat(message.citation()).hasValueSatisfying(c -> {
            assertThat(c.entries()).containsExactly(new CitationEntry("MEMORY.md", 1, 2, "used it"));
            assertThat(c.rolloutIds()).containsExactly(ID, "{" + ID.toUpperCase() + "}", "not-a-uuid");
        });
        assertThat(calls).containsExactly(List.of(ID, "not-a-uuid"));
        assertThat(message.usageRecorded()).isEqualTo(1);
    }

    @Test
    void process_withoutCitationRecordsNothing() {
        List<List<String>> calls = new ArrayList<>();

        AssistantMessage message = CitationUsage.process("plain answer", ids -> {
            calls.add(ids);
            return 5;
        });

        assertThat(message).isEqualTo(new AssistantMessage("plain answer", java.util.Optional.empty(), 0));
        assertThat(calls).isEmpty();
    }

    @Test
    void process_countsAnIdThatIsNotAUuid() {
        List<List<String>> calls = new ArrayList<>();

        AssistantMessage message = CitationUsage.process(
                "<oai-mem-citation><rollout_ids>\nchat-42\n</rollout_ids></oai-mem-citation>", ids -> {
                    calls.add(ids);
                    return 1;
                });

        assertThat(message.visibleText()).isEmpty();
        assertThat(message.citation()).map(MemoryCitation::rolloutIds).contains(List.of("chat-42"));
        assertThat(message.usageRecorded()).isEqualTo(1);
        assertThat(calls).containsExactly(List.of("chat-42"));
    }

    @Test
    void process_keepsAnswerWhenRecordingFails() {
        AssistantMessage message = CitationUsage.process(
                "ok<oai-mem-citation><rollout_ids>\n" + ID + "\n</rollout_ids></oai-mem-citation>", ids -> {
                    throw new IllegalStateException("database is locked");
                });

        assertThat(message.visibleText()).isEqualTo("ok");
        assertThat(message.citation()).isPresent();
        assertThat(message.usageRecorded()).isZero();
    }
}
