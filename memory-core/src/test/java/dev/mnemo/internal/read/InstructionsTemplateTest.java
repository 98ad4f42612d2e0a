package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The memory section's template: every placeholder known and used, values inserted as they are. */
class InstructionsTemplateTest {

    private static final String ALL = "{{ path_prefix }}{{ raw_layout }}{{ scope_layout }}{{ search_how }}"
            + "{{ open_how }}{{ raw_how }}{{ note_how }}{{memory_summary}}";

    @Test
    void parse_splitsAtEachPlaceholder_withOrWithoutSpaces() {
        List<InstructionsTemplate.Segment> segments = InstructionsTemplate.parse("a " + ALL + " z");

        assertThat(segments).filteredOn(InstructionsTemplate.Segment::placeholder)
                .extracting(InstructionsTemplate.Segment::text).containsExactly("path_prefix", "raw_layout",
                        "scope_layout", "search_how", "open_how", "raw_how", "note_how", "memory_summary");
        assertThat(segments.get(0).text()).isEqualTo("a ");
        assertThat(segments.get(segments.size() - 1).text()).isEqualTo(" z");
    }

    @Test
    void parse_rejectsAnUnknownPlaceholder_namingIt() {
        assertThatThrownBy(() -> InstructionsTemplate.parse(ALL + "{{ secrets }}"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("{{ secrets }}");
    }

    @Test
    void parse_rejectsATemplateThatLeavesOneOut() {
        assertThatThrownBy(() -> InstructionsTemplate.parse(ALL.replace("{{ note_how }}", "")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("expected");
    }

    @Test
    void fill_insertsASummaryHoldingPlaceholderTextAsItIs() {
        Map<String, String> values = Map.of("path_prefix", "", "raw_layout", "", "scope_layout", "", "search_how", "",
                "open_how", "", "raw_how", "", "note_how", "", "memory_summary", "{{ raw_how }} is literal here");

        assertThat(InstructionsTemplate.fill(values, 0)).contains("{{ raw_how }} is literal here")
                .contains("MEMORY_SUMMARY BEGINS");
    }
}
