package dev.mnemo.internal.extract;

/**
 * One rendered rollout item.
 *
 * @param tier how much the row matters when the budget is tight
 * @param text the label line and the body, already redacted
 * @param bytes the UTF-8 size of {@code text}, computed once
 */
public record Row(Tier tier, String text, long bytes) {

    /** A row whose UTF-8 size is computed here. */
    Row(Tier tier, String text) {
        this(tier, text, Utf8Text.size(text));
    }


    /** Tiers in the order they are kept (v-latest's Human, Final, OtherAgent, Commentary, Context, Tool). */
    public enum Tier {
        HUMAN("[human user]"),
        FINAL("[assistant final]"),
        OTHER_AGENT("[other agent]"),
        COMMENTARY("[assistant commentary]"),
        CONTEXT("[harness context]"),
        TOOL("[tool]");

        private final String label;

        Tier(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }
}
