package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every way a link can name this machine or a private network, as a browser reads the host. */
class LocalHostsTest {

    @ParameterizedTest
    @ValueSource(strings = {
        // loopback, dotted and in every numeric form browsers take
        "http://127.0.0.1:9000/", "https://127.0.0.1/", "http://127.8.9.10/x", "http://127.1/", "http://127.0.1/",
        "http://2130706433/", "http://0x7f000001/", "http://0x7f.0.0.1/", "http://0177.0.0.1/", "http://0177.1/",
        "http://017700000001/", "http://127.0.0.1./", "http://0/", "http://0.0.0.0:8080/",
        // localhost and its subdomains, any case, trailing dot
        "http://localhost:8888/", "http://LOCALHOST/", "http://localhost./", "http://app.localhost/",
        "http://a.b.LocalHost:1/",
        // private, link-local and shared ranges
        "http://10.0.0.1/", "http://10.255.255.255/", "http://172.16.0.1/", "http://172.31.255.254/",
        "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/", "http://167772161/",
        // IPv6: loopback, unspecified, unique local, link-local, IPv4-mapped and -compatible loopback
        "http://[::1]:9000/", "http://[0:0:0:0:0:0:0:1]/", "http://[::]/", "http://[fc00::1]/", "http://[fd12:3456::1]/",
        "http://[fe80::1]/", "http://[FE80::abcd]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/",
        "http://[::ffff:192.168.0.1]/", "http://[::127.0.0.1]/",
        // what a browser strips before the host: user info, backslashes, odd slashes, percent-encoding, full width
        "http://user:pw@127.0.0.1:9000/", "http://example.com@127.0.0.1/", "http:\\\\127.0.0.1:9000\\",
        "http:/127.0.0.1:9000/", "http:///127.0.0.1/", "https:\\/localhost/", "http://%31%32%37.0.0.1/",
        "http://%6c%6f%63%61%6c%68%6f%73%74/", "http://１２７.０.０.１/", "http://127。0。0。1/", "http://ｌｏｃａｌｈｏｓｔ/",
        "//127.0.0.1:9000/", "http://127.0.0.1:9000?x", "http://127.0.0.1#frag",
        // hosts that cannot be read with certainty count as local
        "http://[::1/", "http://%zz/", "http://999999999999999999999/", "http://1.2.3.4.5/", "http://0x/"})
    void localHosts_inEveryFormABrowserReads(String url) {
        assertThat(LocalHosts.isLocalLink(url)).as(url).isTrue();
        assertThat(MarkdownView.isLocal(url)).as(url).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com/", "http://example.com:8080/path", "https://docs.python.org/3/",
        "http://8.8.8.8/", "http://128.0.0.1/", "http://172.15.0.1/", "http://172.32.0.1/", "http://192.169.0.1/",
        "http://11.0.0.1/", "http://[2001:db8::1]/", "http://[2606:4700::1111]/", "http://localhost.example.com/",
        "http://mylocalhost/", "http://127.0.0.1.example.com/", "http://user@example.com/", "https://xn--bcher-kva.example/"})
    void publicHosts_stayLinks(String url) {
        assertThat(LocalHosts.isLocalLink(url)).as(url).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"mailto:root@localhost", "MEMORY.md", "#section", "skills/deploy.md"})
    void nonWebTargets_areNotJudgedByHost(String url) {
        assertThat(MarkdownView.isLocal(url)).as(url).isFalse();
    }
}
