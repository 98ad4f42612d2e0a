package dev.mnemo.console;

import java.util.Locale;

/**
 * How much of {@code summary_token_limit} a scope's summary uses, as an inline SVG bar drawn on the
 * server (no script, no inline style: the colours come from the style sheet by class). Tokens are
 * estimated as the engine does, four UTF-8 bytes to a token.
 */
final class BudgetBar {

    static final int WIDTH = 400;
    static final int HEIGHT = 14;

    private BudgetBar() {}

    /** Tokens of {@code text}: UTF-8 bytes divided by four, rounded up. */
    static long tokens(String text) {
        long bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        return (bytes + 3) / 4;
    }

    /** The bar for {@code tokens} of {@code limit}, with its figures beside it. */
    static Html.Fragment of(String scope, long tokens, long limit) {
        double share = limit <= 0 ? 1 : (double) tokens / limit;
        long filled = Math.round(Math.min(1.0, share) * WIDTH);
        String level = share >= 1 ? "over" : share >= 0.8 ? "high" : "ok";
        Html html = new Html();
        html.open("div", "class", "budget " + level);
        html.element("span", scope, "class", "scope");
        html.open("svg", "class", "bar", "viewbox", "0 0 " + WIDTH + " " + HEIGHT, "width", Integer.toString(WIDTH),
                "height", Integer.toString(HEIGHT), "preserveaspectratio", "none", "role", "img",
                "aria-label", scope + ": " + tokens + " of " + limit + " tokens");
        html.open("rect", "class", "track", "x", "0", "y", "0", "width", Integer.toString(WIDTH), "height",
                Integer.toString(HEIGHT), "rx", "3").close("rect");
        html.open("rect", "class", "fill", "x", "0", "y", "0", "width", Long.toString(filled), "height",
                Integer.toString(HEIGHT), "rx", "3").close("rect");
        html.close("svg");
        html.element("span", String.format(Locale.ROOT, "%,d / %,d tokens (%.0f %%)", tokens, limit, share * 100),
                "class", "figures");
        html.close("div");
        return html.fragment();
    }
}
