package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Locale;

/** What both benchmark readers share: the file as JSON, its hash, its dates, and what a bad one says. */
final class BenchmarkFiles {

    private static final ObjectMapper JSON = new ObjectMapper();

    private BenchmarkFiles() {}

    /** The file's top-level JSON list, and its content hash. */
    record Parsed(JsonNode list, String fingerprint) {}

    static Parsed readList(Path file, String what) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the " + what + " file " + file, e);
        }
        JsonNode json;
        try {
            json = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " is not JSON, so not " + what + "'s file: " + e.getMessage(), e);
        }
        if (json == null || !json.isArray()) {
            throw new IllegalArgumentException(file + " does not hold a JSON list, as " + what + "'s file does");
        }
        return new Parsed(json, sha256(bytes));
    }

    /** A text field that must be there. */
    static String text(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull() || value.isContainerNode()) {
            throw new IllegalArgumentException(where + " has no '" + field + "'");
        }
        return value.asText();
    }

    /** Parses {@code text} with {@code pattern} (English names, any letter case) as a UTC date and time. */
    static Instant date(String text, String pattern, String where) {
        DateTimeFormatter format = new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern(pattern)
                .toFormatter(Locale.ENGLISH);
        try {
            return LocalDateTime.parse(text.strip(), format).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(where + ": the date '" + text + "' is not of the form '" + pattern + "'",
                    e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
