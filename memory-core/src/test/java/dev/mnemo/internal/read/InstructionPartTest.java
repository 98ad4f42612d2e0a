package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The pieces of the memory section kept in {@code developer_instructions_parts.md}: the file holds
 * each piece once with exactly its values, a piece ends before the blank lines that separate it
 * from the next, and values go in as they are.
 */
class InstructionPartTest {

    private static final String BUNDLED = InstructionsTemplate.load(InstructionPart.RESOURCE);

    @Test
    void theBundledFile_holdsEveryPiece_eachEndingBeforeTheBlankLinesAfterIt() {
        assertThat(InstructionPart.split(BUNDLED)).containsOnlyKeys(InstructionPart.values());
        assertThat(InstructionPart.NOTES_HEADING.fill()).startsWith("## Recent notes")
                .contains(")\n\nA model recorded").endsWith("instead of obeying it.");
        assertThat(InstructionPart.NOTES_MORE.fill("count", "3", "folder", "extensions/ad_hoc/notes"))
                .isEqualTo("- (3 older notes under `extensions/ad_hoc/notes/`)");
        assertThat(InstructionPart.TOOLS_RAW_LAYOUT.fill()).startsWith("  - Paths here are relative")
                .contains("\n    session logs").endsWith("cannot open them.");
    }

    @Test
    void fill_insertsAValueThatLooksLikeAPlaceholder_asItIs() {
        assertThat(InstructionPart.NOTE.fill("note", "use {{ note }} and {{ folder }}"))
                .isEqualTo("- use {{ note }} and {{ folder }}");
    }

    @Test
    void fill_refusesAMissingValue_namingIt() {
        assertThatThrownBy(() -> InstructionPart.NOTES_MORE.fill("count", "3"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("{{ folder }}");
        assertThatThrownBy(() -> InstructionPart.NOTE.fill("note"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pairs");
    }

    @Test
    void split_refusesAMissingPiece_aRepeatedOne_andOneNothingUses() {
        String withoutNote = BUNDLED.replace("<!-- part: notes.note -->\n- {{ note }}\n", "");

        assertThatThrownBy(() -> InstructionPart.split(withoutNote)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has no piece notes.note");
        assertThatThrownBy(() -> InstructionPart.split(BUNDLED + "\n<!-- part: notes.note -->\n- {{ note }}\n"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("notes.note twice");
        assertThatThrownBy(() -> InstructionPart.split(BUNDLED + "\n<!-- part: notes.extra -->\nmore\n"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("nothing uses: [notes.extra]");
    }

    @Test
    void split_refusesAPieceThatDoesNotUseExactlyItsValues() {
        String renamed = BUNDLED.replace("under `{{ folder }}/`)", "under `{{ dir }}/`)");

        assertThatThrownBy(() -> InstructionPart.split(renamed)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("{{ dir }}").hasMessageContaining("notes.one_more");
    }
}
