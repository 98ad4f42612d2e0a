package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HtmlTest {

    @Test
    void textAndAttributes_areEncodedForTheirContext() {
        String html = new Html().element("a", "<b>&", "href", "/x?a=\"><script>", "title", "it's").toString();

        assertThat(html).isEqualTo("<a href=\"/x?a=&#34;>&lt;script>\" title=\"it&#39;s\">&lt;b&gt;&amp;</a>");
    }

    @Test
    void tagAndAttributeNames_mustBePlainNames() {
        assertThatThrownBy(() -> new Html().open("a onclick=x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Html().open("a", "on click", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Html().open("a", "href")).hasMessageContaining("name, value pairs");
    }

    @Test
    void aNullAttributeValue_leavesTheAttributeOut() {
        assertThat(new Html().open("a", "class", null, "href", "/").toString()).isEqualTo("<a href=\"/\">");
    }

    @Test
    void postButton_carriesTheCsrfTokenAndItsFields() {
        String html = new Html().postButton("/pending/approve", "tok", "Approve", "primary", null, "id", "a\"b")
                .toString();

        assertThat(html).contains("method=\"post\"", "action=\"/pending/approve\"",
                "name=\"csrf\" value=\"tok\"", "name=\"id\" value=\"a&#34;b\"").doesNotContain("data-confirm");
    }
}
