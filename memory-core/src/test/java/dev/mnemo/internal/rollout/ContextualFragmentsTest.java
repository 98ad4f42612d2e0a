package dev.mnemo.internal.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ContextualFragments} lower-cases only the ends of a text; it must decide exactly as
 * lower-casing the whole stripped text did, also where Java's lower-casing is not one char to one
 * char (dotted capital I, Kelvin sign, long s, final sigma, surrogate pairs).
 */
class ContextualFragmentsTest {

    private static final String[][] EXCLUDED = ContextualFragments.MEMORY_EXCLUDED;
    private static final String[][] HARNESS = ContextualFragments.HARNESS;

    @Test
    void decidesAsLowerCasingTheWholeTextDid() {
        List<String> texts = new ArrayList<>(List.of("", " ", "<skill>", "<skill></skill>", "<SKILL>x</Skill>",
                "  <skill>\n body \n</skill>\t", "<s\u212Aill>x</s\u212Aill>", "<\u017Fkill>x</\u017Fkill>",
                "\u0130<skill>x</skill>", "<skill>x</skill>\u0130", "<skill>x</ski\u0130l>", "<SK\u0130LL>x</skill>",
                "<skill>\u03A3</skill>", "<skill>x\u03A3</skill>", "\u03A3<skill>x</skill>",
                "<skill>\uD801\uDC00</skill>", "\uD801\uDC00<skill>x</skill>\uD801\uDC00", "<skill>x</skill>\uD801",
                "\uDC00<skill>x</skill>", "# AGENTS.md instructions for /repo\n<INSTRUCTIONS>\nbe nice\n</INSTRUCTIONS>",
                "<ENVIRONMENT_CONTEXT>cwd</ENVIRONMENT_CONTEXT>", "<turn_aborted>", "</turn_aborted>",
                "<turn_aborted></turn_aborted>", "<user_instructions>a</user_instructions> trailing",
                "\u2003<skill>x</skill>\u2003", "<skill>x</skill>\u00A0"));
        Random random = new Random(0x5EED_0019L);
        String alphabet = "<>/_#. sSkKiIlL\u212A\u017F\u0130\u03A3\u03C3\uD801\uDC00\u00DF\u1E9E";
        for (int k = 0; k < 20_000; k++) {
            String[][] source = random.nextBoolean() ? EXCLUDED : HARNESS;
            String[] fragment = source[random.nextInt(source.length)];
            StringBuilder text = new StringBuilder(fragment[0] + "body" + fragment[1]);
            for (int edits = random.nextInt(3); edits >= 0; edits--) {
                int at = random.nextInt(text.length() + 1);
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                if (random.nextBoolean() && at < text.length()) {
                    text.setCharAt(at, random.nextBoolean() ? Character.toUpperCase(text.charAt(at)) : c);
                } else {
                    text.insert(at, c);
                }
            }
            texts.add(text.toString());
        }
        for (String text : texts) {
            assertThat(ContextualFragments.isMemoryExcluded(text)).as(text).isEqualTo(lowerCasingAll(text, EXCLUDED));
            assertThat(ContextualFragments.isHarnessContext(text)).as(text).isEqualTo(lowerCasingAll(text, HARNESS));
        }
    }

    /** The decision as it was made before: the whole stripped text lower-cased. */
    private static boolean lowerCasingAll(String text, String[][] fragments) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        for (String[] fragment : fragments) {
            if (t.startsWith(fragment[0]) && t.endsWith(fragment[1])) {
                return true;
            }
        }
        return false;
    }
}
