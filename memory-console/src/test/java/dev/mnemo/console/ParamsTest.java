package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParamsTest {

    @Test
    void parse_decodesNamesAndValues() {
        Params params = Params.parse("path=skills%2Fdeploy.md&q=cold+resume&thread=user%40example.com%2F7");

        assertThat(params.get("path")).hasValue("skills/deploy.md");
        assertThat(params.get("q")).hasValue("cold resume");
        assertThat(params.get("thread")).hasValue("user@example.com/7");
        assertThat(params.get("id")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"path=..", "path=../x", "path=a/../../x", "path=a/..", "path=..%2Fx", "path=%2E%2E%2Fx",
        "path=%252e%252e%252fx", "path=%2Fetc%2Fpasswd", "path=/etc/passwd", "path=~/x", "path=C:/x", "path=a%5Cb",
        "path=a%00b", "path=a%0Ab", "path=%25u002e%25u002e", "path=%25%32%65"})
    void parse_refusesEveryWayOutOfTheFolder(String query) {
        assertThatThrownBy(() -> Params.parse(query)).isInstanceOf(HttpProblem.class)
                .satisfies(e -> assertThat(((HttpProblem) e).status()).isEqualTo(400));
    }

    @ParameterizedTest
    @ValueSource(strings = {"q=...", "q=a..b", "thread=chat:42", "q=50%25", "path=rollout_summaries/x.md",
        "thread=user%40example.com%2F7"})
    void parse_acceptsValuesThatOnlyLookOdd(String query) {
        assertThat(Params.parse(query).isEmpty()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"q=%2Fusr%2Fbin", "q=/usr/bin", "q=..", "q=../../etc/passwd", "q=C:%5CUsers",
        "q=~/notes", "q=%25u002e", "q=%252e%252e", "q=line%0Anext", "q=tab%09x"})
    void parse_takesAnyTextInTheSearch_whichNamesNoFile(String query) {
        String expected = java.net.URLDecoder.decode(query.substring(2), java.nio.charset.StandardCharsets.UTF_8);

        assertThat(Params.parse(query).get(Params.SEARCH)).hasValue(expected);
    }

    @Test
    void parse_refusesASearchLongerThanItsLimit() {
        assertThat(Params.parse("q=" + "a".repeat(Params.MAX_FREE_TEXT_CHARS)).get("q")).isPresent();
        assertThatThrownBy(() -> Params.parse("q=" + "a".repeat(Params.MAX_FREE_TEXT_CHARS + 1)))
                .isInstanceOf(HttpProblem.class).hasMessageContaining("too long");
    }

    @Test
    void parse_refusesARepeatedParameter_anUnknownNameShape_andBadEncoding() {
        assertThatThrownBy(() -> Params.parse("id=a&id=b")).hasMessageContaining("given twice");
        assertThatThrownBy(() -> Params.parse("Path=x")).hasMessageContaining("parameter name");
        assertThatThrownBy(() -> Params.parse("path=%zz")).hasMessageContaining("percent-encoding");
    }

    @Test
    void require_namesTheMissingParameter() {
        assertThatThrownBy(() -> Params.parse("q=x").require("thread")).hasMessage("parameter thread is required");
    }
}
