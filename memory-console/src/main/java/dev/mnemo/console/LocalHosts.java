package dev.mnemo.console;

import java.net.IDN;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a link in memory text points at this machine or its private network, as a browser would
 * read the link: the console's session cookie is sent to every port of {@code 127.0.0.1} (cookies
 * are not kept per port), so a click on {@code http://127.0.0.1:9000/} would hand it to whoever
 * listens there. The host is read as the WHATWG URL parser reads it: backslashes count as slashes,
 * the user part before {@code @} is dropped, percent-encoding and full-width characters are undone
 * (IDNA), a trailing dot is ignored, and a name whose last label is a number is an IPv4 address in
 * any of the forms browsers take ({@code 2130706433}, {@code 0x7f.1}, {@code 0177.0.0.1},
 * {@code 127.1}).
 *
 * <p>Local: {@code localhost} and {@code *.localhost}; IPv4 {@code 0.0.0.0/8}, {@code 127.0.0.0/8},
 * {@code 10/8}, {@code 172.16/12}, {@code 192.168/16}, {@code 169.254/16}, {@code 100.64/10};
 * IPv6 {@code ::}, {@code ::1}, {@code fc00::/7}, {@code fe80::/10}, {@code fec0::/10} and the IPv4
 * ones mapped or embedded in IPv6. A host that cannot be read with certainty counts as local. Names
 * that DNS resolves to such an address are not looked up (a page never waits on DNS): only what the
 * link itself says is judged.
 */
final class LocalHosts {

    private LocalHosts() {}

    /**
     * Whether the {@code http}, {@code https} (or scheme-relative) link {@code url} leads to a
     * local or private host, or its host cannot be read with certainty.
     */
    static boolean isLocalLink(String url) {
        return host(url).map(LocalHosts::isLocalHost).orElse(true);
    }

    /**
     * The host of {@code url} as a browser reads it, still encoded as written (brackets kept for
     * IPv6); empty when there is none.
     */
    static Optional<String> host(String url) {
        String rest = url.strip().replace('\\', '/');
        int colon = rest.indexOf(':');
        int slash = rest.indexOf('/');
        if (colon > 0 && (slash < 0 || colon < slash)) {
            rest = rest.substring(colon + 1);
        }
        // Special schemes skip any run of slashes before the host: http:/x, http:///x, http:x all reach host x.
        rest = rest.replaceFirst("^/+", "");
        int end = rest.length();
        for (char stop : new char[] {'/', '?', '#'}) {
            int at = rest.indexOf(stop);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        String authority = rest.substring(0, end);
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            authority = authority.substring(at + 1);
        }
        String host;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            host = close < 0 ? authority : authority.substring(0, close + 1);
        } else {
            int port = authority.lastIndexOf(':');
            host = port >= 0 ? authority.substring(0, port) : authority;
        }
        return host.isEmpty() ? Optional.empty() : Optional.of(host);
    }

    /**
     * Whether {@code rawHost} (as written in a URL: percent-encoded or not, IPv6 in brackets) names
     * a local or private host, or cannot be read with certainty.
     */
    static boolean isLocalHost(String rawHost) {
        String host;
        try {
            host = URLDecoder.decode(rawHost.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return true;
        }
        if (host.startsWith("[")) {
            return !host.endsWith("]") || isLocalIpv6(host.substring(1, host.length() - 1));
        }
        String ascii;
        try {
            ascii = IDN.toASCII(host, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return true;
        }
        if (ascii.isEmpty() || ascii.chars().anyMatch(c -> c <= ' ' || c == '%' || c == '[' || c == ']')) {
            return true;
        }
        String name = ascii.endsWith(".") ? ascii.substring(0, ascii.length() - 1) : ascii;
        if (name.equals("localhost") || name.endsWith(".localhost")) {
            return true;
        }
        String last = name.substring(name.lastIndexOf('.') + 1);
        if (!last.isEmpty() && looksNumeric(last)) {
            long[] address = ipv4(name);
            return address.length == 0 || isLocalIpv4(address[0]);
        }
        return false;
    }

    /** A label browsers take for a number: decimal digits, or {@code 0x} and hex digits. */
    private static boolean looksNumeric(String label) {
        if (label.matches("[0-9]+")) {
            return true;
        }
        return label.matches("0[xX][0-9a-fA-F]*");
    }

    /**
     * The WHATWG IPv4 parser: one to four parts, each decimal, octal (a leading {@code 0}) or hex
     * ({@code 0x}); the last fills the bytes the others leave. Returns the address as one number,
     * or an empty array when a browser would refuse the host.
     */
    private static long[] ipv4(String name) {
        String[] parts = name.split("\\.", -1);
        if (parts.length > 4) {
            return new long[0];
        }
        long[] numbers = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            Optional<Long> number = ipv4Number(parts[i]);
            if (number.isEmpty()) {
                return new long[0];
            }
            numbers[i] = number.get();
        }
        for (int i = 0; i < numbers.length - 1; i++) {
            if (numbers[i] > 255) {
                return new long[0];
            }
        }
        long last = numbers[numbers.length - 1];
        if (last >= 1L << (8 * (5 - numbers.length))) {
            return new long[0];
        }
        long address = last;
        for (int i = 0; i < numbers.length - 1; i++) {
            address += numbers[i] << (8 * (3 - i));
        }
        return new long[] {address};
    }

    private static Optional<Long> ipv4Number(String part) {
        if (part.isEmpty()) {
            return Optional.empty();
        }
        int radix = 10;
        String digits = part;
        if (part.length() >= 2 && (part.startsWith("0x") || part.startsWith("0X"))) {
            radix = 16;
            digits = part.substring(2);
        } else if (part.length() >= 2 && part.startsWith("0")) {
            radix = 8;
            digits = part.substring(1);
        }
        if (digits.isEmpty()) {
            return Optional.of(0L);
        }
        if (digits.length() > 16) {
            return Optional.of(Long.MAX_VALUE);
        }
        try {
            return Optional.of(Long.parseLong(digits, radix));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Loopback, "this network", private, link-local and shared (carrier-grade NAT) IPv4 ranges. */
    static boolean isLocalIpv4(long address) {
        int a = (int) (address >>> 24) & 0xff;
        int b = (int) (address >>> 16) & 0xff;
        return a == 0 || a == 127 || a == 10
                || (a == 172 && b >= 16 && b <= 31)
                || (a == 192 && b == 168)
                || (a == 169 && b == 254)
                || (a == 100 && b >= 64 && b <= 127);
    }

    private static boolean isLocalIpv6(String literal) {
        if (literal.isEmpty() || !literal.matches("[0-9A-Fa-f:.]+")) {
            return true;
        }
        InetAddress address;
        try {
            address = InetAddress.getByName("[" + literal + "]");
        } catch (UnknownHostException e) {
            return true;
        }
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address) {
            return isLocalIpv4(toLong(bytes, 0));
        }
        Inet6Address v6 = (Inet6Address) address;
        if (v6.isAnyLocalAddress() || v6.isLoopbackAddress() || v6.isLinkLocalAddress() || v6.isSiteLocalAddress()) {
            return true;
        }
        if ((bytes[0] & 0xfe) == 0xfc) {
            return true;
        }
        boolean zeroPrefix = true;
        for (int i = 0; i < 10; i++) {
            zeroPrefix &= bytes[i] == 0;
        }
        boolean embedsIpv4 = zeroPrefix && ((bytes[10] == 0 && bytes[11] == 0)
                || (bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff));
        return embedsIpv4 && isLocalIpv4(toLong(bytes, 12));
    }

    private static long toLong(byte[] bytes, int from) {
        long value = 0;
        for (int i = from; i < from + 4; i++) {
            value = (value << 8) | (bytes[i] & 0xff);
        }
        return value;
    }
}
