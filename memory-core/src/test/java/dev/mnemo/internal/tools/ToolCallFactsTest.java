package dev.mnemo.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryTools;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a memory tool call did, read from its arguments and output, holding none of the output's content. */
class ToolCallFactsTest {

    @Test
    void search_keepsItsQueriesAndCountsItsMatches() {
        ToolCallFacts facts = ToolCallFacts.of(MemoryTools.SEARCH, "{\"queries\":[\" deploy \",\"ship\"]}",
                "{\"queries\":[\"deploy\",\"ship\"],\"matches\":[{\"path\":\"MEMORY.md\"},{\"path\":\"a.md\"}]}");

        assertThat(facts.queries()).containsExactly("deploy", "ship");
        assertThat(facts.target()).isEqualTo("deploy; ship");
        assertThat(facts.count()).isEqualTo(2);
        assertThat(facts.isRead()).isTrue();
        assertThat(facts.failed()).isFalse();
    }

    @Test
    void readAndList_nameTheirPath_andAnErrorIsAFailure() {
        ToolCallFacts read = ToolCallFacts.of(MemoryTools.READ, "{\"path\":\"MEMORY.md\"}", "{\"content\":\"x\"}");
        ToolCallFacts list = ToolCallFacts.of(MemoryTools.LIST, "{}", "{\"entries\":[{},{},{}]}");
        ToolCallFacts missing = ToolCallFacts.of(MemoryTools.READ, "{\"path\":\"nope.md\"}", "{\"error\":\"not found\"}");

        assertThat(read.path()).contains("MEMORY.md");
        assertThat(read.count()).isEqualTo(1);
        assertThat(read.bytes()).isEqualTo("{\"content\":\"x\"}".length());
        assertThat(list.target()).isEmpty();
        assertThat(list.count()).isEqualTo(3);
        assertThat(missing.failed()).isTrue();
        assertThat(missing.count()).isZero();
    }

    @Test
    void aNoteWritten_namesItsPath_butOneHeldForApprovalOrRefusedDoesNot() {
        String args = "{\"filename\":\"2026-01-01T00-00-00-x.md\",\"note\":\"n\"}";

        assertThat(ToolCallFacts.of(MemoryTools.ADD_AD_HOC_NOTE, args, "{}").wroteNote()).isTrue();
        assertThat(ToolCallFacts.of(MemoryTools.ADD_AD_HOC_NOTE, args, "{}").path())
                .contains("extensions/ad_hoc/notes/2026-01-01T00-00-00-x.md");
        assertThat(ToolCallFacts.of(MemoryTools.ADD_AD_HOC_NOTE, args,
                "{\"status\":\"awaiting_approval\",\"pending_id\":\"p\"}").wroteNote()).isFalse();
        assertThat(ToolCallFacts.of(MemoryTools.ADD_AD_HOC_NOTE, args, "{\"error\":\"exists\"}").wroteNote()).isFalse();
        assertThat(ToolCallFacts.of(MemoryTools.ADD_AD_HOC_NOTE, args, "{}").isRead()).isFalse();
    }

    @Test
    void malformedArgumentsOrOutput_neverThrow() {
        ToolCallFacts facts = ToolCallFacts.of(MemoryTools.SEARCH, "{not json", "not json either");

        assertThat(facts.failed()).isTrue();
        assertThat(facts.queries()).isEqualTo(List.of());
        assertThat(facts.path()).isEqualTo(Optional.empty());
    }
}
