package dev.mnemo.console;

import dev.mnemo.llm.TokenCounter;
import java.util.Locale;

/**
 * How much of {@code summary_token_limit} a scope's summary uses, as an inline SVG bar drawn on the
 * server (no script, no inline style: the colours come from the style sheet by class). Tokens are
 * counted as the engine counts them for the cap ({@link dev.mnemo.MemoryEngine#tokenCounter()}):
 * its model's tokenizer when the model has one, else four UTF-8 bytes to a token.
 */
final class BudgetBar {

    static final int WIDTH = 400;
    static final int HEIGHT = 14;
    /**
     * Below this many tokens left, a project session's instructions leave the global summary out
     * (the engine's {@code DeveloperInstructions.MIN_GLOBAL_TOKENS}).
     */
    static final long MIN_GLOBAL_TOKENS = 64;

    private BudgetBar() {}

    /** Tokens of {@code text}: UTF-8 bytes divided by four, rounded up ({@link TokenCounter#estimateTokens}). */
    static long tokens(String text) {
        return TokenCounter.estimateTokens(text);
    }

    /** Tokens of {@code text} as {@code counter} counts them. */
    static long tokens(String text, TokenCounter counter) {
        return counter.count(text);
    }

    /** How the page says tokens are counted. */
    static String countedAs(TokenCounter counter) {
        return counter == TokenCounter.estimate() ? "about four bytes each" : "counted by the model's tokenizer";
    }

    /**
     * What a session in a project leaves the global summary: the project's summary comes first and
     * takes up to the whole limit; the global one gets the rest, and none below
     * {@value #MIN_GLOBAL_TOKENS} tokens.
     */
    static long globalLimitInProject(long limit, long projectTokens) {
        long rest = limit - Math.min(limit, projectTokens);
        return rest < MIN_GLOBAL_TOKENS ? 0 : rest;
    }

    /** The bar for {@code tokens} of {@code limit}, with its figures beside it. */
    static Html.Fragment of(String scope, long tokens, long limit) {
        return of(scope, null, tokens, limit);
    }

    /**
     * The bar for {@code tokens} of {@code limit}; {@code title}, when not null, is the scope's hover
     * text. A limit of 0 (the global summary left out of a project's sessions) is said in words.
     */
    static Html.Fragment of(String scope, String title, long tokens, long limit) {
        double share = limit <= 0 ? 1 : (double) tokens / limit;
        long filled = Math.round(Math.min(1.0, share) * WIDTH);
        String level = share >= 1 ? "over" : share >= 0.8 ? "high" : "ok";
        Html html = new Html();
        html.open("div", "class", "budget " + level);
        html.element("span", scope, "class", "scope", "title", title);
        html.open("svg", "class", "bar", "viewbox", "0 0 " + WIDTH + " " + HEIGHT, "width", Integer.toString(WIDTH),
                "height", Integer.toString(HEIGHT), "preserveaspectratio", "none", "role", "img",
                "aria-label", scope + ": " + tokens + " of " + limit + " tokens");
        html.open("rect", "class", "track", "x", "0", "y", "0", "width", Integer.toString(WIDTH), "height",
                Integer.toString(HEIGHT), "rx", "3").close("rect");
        html.open("rect", "class", "fill", "x", "0", "y", "0", "width", Long.toString(filled), "height",
                Integer.toString(HEIGHT), "rx", "3").close("rect");
        html.close("svg");
        html.element("span", limit <= 0 ? String.format(Locale.ROOT, "%,d tokens, left out: no budget is left", tokens)
                : String.format(Locale.ROOT, "%,d / %,d tokens (%.0f %%)", tokens, limit, share * 100), "class", "figures");
        html.close("div");
        return html.fragment();
    }
}
