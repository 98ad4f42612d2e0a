package dev.mnemo.internal.consolidate;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The file stem of a rollout summary, {@code <ts>-<hash4>[-<slug>]}, exactly as Codex's
 * {@code storage.rs::rollout_summary_file_stem} (write sheet §4.7): the UTC second of the thread's
 * UUIDv7, four base-62 digits of a hash of the id, and the model's slug lower-cased, with other
 * characters as {@code _}, at most {@value #MAX_SLUG_CHARS} chars.
 */
public final class RolloutSummaryStem {

    /** Slugs are cut once they reach this many chars. */
    public static final int MAX_SLUG_CHARS = 60;

    private static final String BASE62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final long HASH_SPACE = 62L * 62 * 62 * 62; // 14,776,336
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss").withZone(ZoneOffset.UTC);

    private RolloutSummaryStem() {}

    /**
     * The stem for a thread whose id is a UUIDv7 (as Codex's and Mnemo's are).
     *
     * @throws IllegalArgumentException when the id carries no UUIDv7 timestamp; use
     *     {@link #of(String, Optional, Instant)} with the rollout's update time then
     */
    public static String of(String threadId, Optional<String> slug) {
        Objects.requireNonNull(threadId, "threadId");
        Instant time = uuidV7Time(threadId).orElseThrow(() -> new IllegalArgumentException(
                "thread id '" + threadId + "' is not a UUIDv7; pass the rollout's update time"));
        return stem(time, threadId, slug);
    }

    /**
     * The stem for any thread id: the UUIDv7 time when the id has one, else
     * {@code sourceUpdatedAt}.
     */
    public static String of(String threadId, Optional<String> slug, Instant sourceUpdatedAt) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        return stem(uuidV7Time(threadId).orElse(sourceUpdatedAt), threadId, slug);
    }

    private static String stem(Instant time, String threadId, Optional<String> slug) {
        Objects.requireNonNull(slug, "slug");
        String stem = TIMESTAMP.format(time) + "-" + hash4(threadId);
        String cleanSlug = slug.map(RolloutSummaryStem::sanitizeSlug).orElse("");
        return cleanSlug.isEmpty() ? stem : stem + "-" + cleanSlug;
    }

    /** Lower-cased ASCII letters and digits, {@code _} for everything else, cut at 60, no trailing {@code _}. */
    static String sanitizeSlug(String slug) {
        StringBuilder out = new StringBuilder(MAX_SLUG_CHARS);
        for (int i = 0; i < slug.length() && out.length() < MAX_SLUG_CHARS; ) {
            int cp = slug.codePointAt(i);
            i += Character.charCount(cp);
            boolean asciiAlnum = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
            out.append(asciiAlnum ? Character.toLowerCase((char) cp) : '_');
        }
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == '_') {
            end--;
        }
        return out.substring(0, end);
    }

    /** Four base-62 digits of the id's low 32 bits (UUID) or of a 31-multiplier hash of its bytes. */
    static String hash4(String threadId) {
        long seed = parseUuid(threadId)
                .map(uuid -> uuid.getLeastSignificantBits() & 0xFFFF_FFFFL)
                .orElseGet(() -> stringSeed(threadId));
        long value = seed % HASH_SPACE;
        char[] digits = new char[4];
        for (int i = 3; i >= 0; i--) {
            digits[i] = BASE62.charAt((int) (value % 62));
            value /= 62;
        }
        return new String(digits);
    }

    /** {@code seed = seed * 31 + byte}, wrapping at 32 bits, over the id's UTF-8 bytes. */
    private static long stringSeed(String threadId) {
        int seed = 0;
        for (byte b : threadId.getBytes(StandardCharsets.UTF_8)) {
            seed = seed * 31 + (b & 0xFF);
        }
        return Integer.toUnsignedLong(seed);
    }

    /** The millisecond timestamp in the top 48 bits of a version-7 UUID, truncated to the second. */
    static Optional<Instant> uuidV7Time(String threadId) {
        return parseUuid(threadId)
                .filter(uuid -> uuid.version() == 7)
                .map(uuid -> Instant.ofEpochSecond(Math.floorDiv(uuid.getMostSignificantBits() >>> 16, 1000L)));
    }

    private static Optional<UUID> parseUuid(String id) {
        String s = id.strip();
        if (s.length() != 36 || s.charAt(8) != '-' || s.charAt(13) != '-' || s.charAt(18) != '-'
                || s.charAt(23) != '-') {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(s));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
