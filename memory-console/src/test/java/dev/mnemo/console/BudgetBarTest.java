package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.llm.TokenCounter;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

class BudgetBarTest {

    @Test
    void tokens_areUtf8BytesOverFour_roundedUp() {
        assertThat(BudgetBar.tokens("")).isZero();
        assertThat(BudgetBar.tokens("abcd")).isEqualTo(1);
        assertThat(BudgetBar.tokens("abcde")).isEqualTo(2);
        assertThat(BudgetBar.tokens("éé")).isEqualTo(1);
    }

    @Test
    void tokens_withTheEnginesCounter_areThatCountersAndThePageSaysSo() {
        TokenCounter perCodePoint = text -> text.codePointCount(0, text.length());

        assertThat(BudgetBar.tokens("記憶記憶", perCodePoint)).isEqualTo(4);
        assertThat(BudgetBar.tokens("記憶記憶", TokenCounter.estimate())).isEqualTo(3);
        assertThat(BudgetBar.countedAs(perCodePoint)).isEqualTo("counted by the model's tokenizer");
        assertThat(BudgetBar.countedAs(TokenCounter.estimate())).isEqualTo("about four bytes each");
    }

    @Test
    void bar_fillsItsShare_andIsMarkedWhenNearOrOverTheLimit() {
        Element quarter = Jsoup.parseBodyFragment(BudgetBar.of("global", 625, 2_500).toString()).body();
        Element over = Jsoup.parseBodyFragment(BudgetBar.of("project <x>", 3_000, 2_500).toString()).body();

        assertThat(quarter.select("rect.fill").attr("width")).isEqualTo("100");
        assertThat(quarter.select("div.budget").hasClass("ok")).isTrue();
        assertThat(quarter.select(".figures").text()).isEqualTo("625 / 2,500 tokens (25 %)");
        assertThat(over.select("rect.fill").attr("width")).isEqualTo("400");
        assertThat(over.select("div.budget").hasClass("over")).isTrue();
        assertThat(over.select(".scope").text()).isEqualTo("project <x>");
    }

    @Test
    void globalLimitInAProject_isWhatTheProjectsSummaryLeaves_andNoneBelowTheMinimum() {
        assertThat(BudgetBar.globalLimitInProject(2_500, 0)).isEqualTo(2_500);
        assertThat(BudgetBar.globalLimitInProject(2_500, 2_000)).isEqualTo(500);
        assertThat(BudgetBar.globalLimitInProject(2_500, 2_436)).isEqualTo(BudgetBar.MIN_GLOBAL_TOKENS);
        assertThat(BudgetBar.globalLimitInProject(2_500, 2_450)).isZero();
        assertThat(BudgetBar.globalLimitInProject(2_500, 9_000)).isZero();
    }

    @Test
    void bar_withNoBudgetLeft_saysTheSummaryIsLeftOut() {
        Element leftOut = Jsoup.parseBodyFragment(BudgetBar.of("global, in x's sessions", "projects/x-0123456789abcdef",
                120, 0).toString()).body();

        assertThat(leftOut.select(".figures").text()).isEqualTo("120 tokens, left out: no budget is left");
        assertThat(leftOut.select(".scope").attr("title")).isEqualTo("projects/x-0123456789abcdef");
        assertThat(leftOut.select("div.budget").hasClass("over")).isTrue();
    }
}
