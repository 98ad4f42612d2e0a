package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryReceipt.InjectedFile;
import dev.mnemo.MemoryReceipt.ToolRead;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MemoryReceiptTest {

    private static final MemoryReceipt RECEIPT = new MemoryReceipt("conv-1",
            List.of(new InjectedFile("global", "summary", "memory_summary.md", "ab".repeat(32), 2_048, 512, true)),
            List.of(new ToolRead("memories_search", "tabs", 300, false)),
            List.of(new MemoryCitation(List.of(new CitationEntry("MEMORY.md", 3, 9, "the user likes tabs")),
                    List.of("0194d3a2-aaaa-7bbb-8ccc-123456789abc"))));

    @Test
    void logMessage_readsBackAsTheSameReceiptWithoutCitationNotes() {
        MemoryReceipt back = MemoryReceipt.fromLogMessage(RECEIPT.toLogMessage()).orElseThrow();

        assertThat(back.injected()).isEqualTo(RECEIPT.injected());
        assertThat(back.reads()).isEqualTo(RECEIPT.reads());
        assertThat(back.citations().get(0).rolloutIds()).isEqualTo(RECEIPT.citations().get(0).rolloutIds());
        assertThat(back.citations().get(0).entries().get(0).note()).isEmpty();
        assertThat(RECEIPT.toLogMessage()).doesNotContain("likes tabs");
    }

    @Test
    void logMessage_startsWithASentenceSayingWhatWasGivenReadAndCited() {
        assertThat(RECEIPT.toLogMessage()).startsWith(
                "memory given: 1 file(s), 512 tokens, cut by the cap; read: 1 tool call(s), 300 bytes;"
                        + " cited: 1 file(s) from 1 conversation(s) | {");
        assertThat(MemoryReceipt.none("c").toLogMessage()).startsWith("memory given: none; read: none; cited: none");
    }

    @Test
    void fromLogMessage_isEmptyForAnyOtherMessage() {
        assertThat(MemoryReceipt.fromLogMessage("phase 1 claimed 3 jobs")).isEmpty();
        assertThat(MemoryReceipt.fromLogMessage("x | {not json")).isEmpty();
    }

    @Test
    void oldAssistantMessageConstructor_givesAReceiptOfItsCitationOnly() {
        MemoryCitation citation = RECEIPT.citations().get(0);
        AssistantMessage message = new AssistantMessage("hi", Optional.of(citation), 1);

        assertThat(message.receipt().citations()).containsExactly(citation);
        assertThat(message.receipt().given()).isFalse();
        assertThatThrownBy(() -> new ToolRead("t", "", -1, false)).hasMessageContaining("bytesReturned");
    }
}
