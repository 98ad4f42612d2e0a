package dev.mnemo.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** The console's own links: a route and its query, every value percent-encoded. */
final class Urls {

    private Urls() {}

    /** {@code route?name=value&...}; pairs with a null value are left out. */
    static String of(String route, String... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("query parameters come in name, value pairs; got " + pairs.length);
        }
        StringBuilder url = new StringBuilder(route);
        char separator = '?';
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                url.append(separator).append(encode(pairs[i])).append('=').append(encode(pairs[i + 1]));
                separator = '&';
            }
        }
        return url.toString();
    }

    /** One query value, percent-encoded ({@code %20} for a space). */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
