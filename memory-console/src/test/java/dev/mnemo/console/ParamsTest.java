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
        "path=a%00b", "path=a%0Ab", "q=%25u002e%25u002e", "path=%25%32%65"})
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
