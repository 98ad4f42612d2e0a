package dev.mnemo.internal.extract;

import dev.mnemo.internal.read.TokenTruncation;
import java.nio.charset.StandardCharsets;

/**
 * UTF-8 sizes and cuts of strings that never split a code point (the walks are
 * {@link TokenTruncation}'s, which cuts the read path's text the same way).
 */
final class Utf8Text {

    private Utf8Text() {}

    /** The UTF-8 size of {@code s}, without encoding it. */
    static long size(CharSequence s) {
        if (s instanceof String text) {
            // getBytes is an intrinsic (ASCII is copied as it is): far quicker than the charAt loop.
            // Same count, lone surrogates aside (3 bytes below, 1 for the '?' getBytes writes).
            return text.getBytes(StandardCharsets.UTF_8).length;
        }
        long bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** The longest prefix of {@code s} whose UTF-8 size is at most {@code maxBytes}. */
    static String head(String s, long maxBytes) {
        return s.substring(0, TokenTruncation.headEnd(s, maxBytes));
    }

    /** The longest suffix of {@code s} whose UTF-8 size is at most {@code maxBytes}. */
    static String tail(String s, long maxBytes) {
        return s.substring(TokenTruncation.tailStart(s, maxBytes));
    }

    /**
     * {@code s} cut to at most {@code maxBytes}, keeping its head and tail around a visible
     * {@code [… N bytes omitted …]} marker. When even the marker does not fit, a plain head.
     */
    static String shorten(String s, long maxBytes) {
        long size = size(s);
        if (size <= maxBytes) {
            return s;
        }
        // The marker's own size depends on N; reserve room for the widest N.
        long markerBytes = size(gapMarker(size));
        long room = maxBytes - markerBytes;
        if (room < 16) {
            return head(s, Math.max(0, maxBytes));
        }
        String head = head(s, room - room / 2);
        String tail = tail(s, room / 2);
        long omitted = size - size(head) - size(tail);
        return head + gapMarker(omitted) + tail;
    }

    static String gapMarker(long omittedBytes) {
        return "\n[… " + omittedBytes + " bytes omitted …]\n";
    }
}
