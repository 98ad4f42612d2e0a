package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

class MarkdownViewTest {

    private static Element render(String markdown, String file) {
        return Jsoup.parseBodyFragment(MarkdownView.render(markdown, Optional.ofNullable(file)).toString()).body();
    }

    @Test
    void rawHtml_isShownAsText_blockAndInline() {
        Element html = render("<script>alert(1)</script>\n\nText <img src=x onerror=alert(2)> here.\n", null);

        assertThat(html.select("script, img")).isEmpty();
        assertThat(html.text()).contains("<script>alert(1)</script>").contains("<img src=x onerror=alert(2)>");
    }

    @Test
    void links_keepOnlyWebAndMailTargets() {
        Element html = render("[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,x)"
                + " [d](vbscript:x) [e](file:///etc/passwd) [f](https://example.com) [g](mailto:me@example.com)"
                + " [h](//evil.example/x) [i](#section) <javascript:alert(3)>", null);

        assertThat(html.select("a[href]").eachAttr("href"))
                .containsExactly("https://example.com", "mailto:me@example.com", "#section");
        assertThat(html.select("a.link-removed")).hasSize(7);
    }

    @Test
    void relativeLinks_becomeConsoleLinksToMemoryFiles_andNeverLeaveTheFolder() {
        Element html = render("[up](../MEMORY.md) [sib](deploy.md#steps) [out](../../x.md) [abs](/etc/passwd)"
                + " [hidden](.git/config) [enc](..%2Fx.md)", "skills/build.md");

        assertThat(html.select("a[href]").eachAttr("href"))
                .containsExactly("/memory?path=MEMORY.md", "/memory?path=skills%2Fdeploy.md");
    }

    @Test
    void images_areNotLoaded() {
        Element html = render("![a cat](https://evil.example/track.png)", null);

        assertThat(html.select("img")).hasSize(1);
        assertThat(html.select("img[src]")).isEmpty();
        assertThat(html.select("img").attr("alt")).isEqualTo("a cat");
    }

    @Test
    void linksAutolinksAndImagesToLocalHosts_arePlainTextNotAnchors() {
        Element html = render("[admin](http://127.0.0.1:9000/admin) and <http://localhost:8888/?token=x> and"
                + " [meta](http://169.254.169.254/) and [v6](http://[::1]:9000/) and [dec](http://2130706433/) and"
                + " [bs](http:\\\\127.0.0.1:9000/) and [lan](https://192.168.1.10/) and ![pixel](http://10.0.0.1/p.png)"
                + " and [fine](https://example.com/)", null);

        assertThat(html.select("a[href]").eachAttr("href")).containsExactly("https://example.com/");
        assertThat(html.select("a")).hasSize(1);
        assertThat(html.select("img")).isEmpty();
        assertThat(html.select("span.link-local").eachText()).containsExactly("admin", "http://localhost:8888/?token=x",
                "meta", "v6", "dec", "bs", "lan", "pixel");
        assertThat(html.select("span.link-local").first().attr("title")).contains("http://127.0.0.1:9000/admin");
    }

    @Test
    void aLocalLinkKeepsItsFormattedText() {
        Element html = render("See [the **local** admin](http://127.0.0.1:9000/).", null);

        assertThat(html.select("a")).isEmpty();
        assertThat(html.select("span.link-local strong").text()).isEqualTo("local");
        assertThat(html.text()).isEqualTo("See the local admin.");
    }

    @Test
    void tables_areRendered() {
        Element html = render("| a | b |\n|---|---|\n| 1 | <i>2</i> |\n", null);

        assertThat(html.select("table td").eachText()).containsExactly("1", "<i>2</i>");
    }
}
