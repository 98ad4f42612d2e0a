package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a Codex rollout JSONL file one line at a time. Each line is parsed on its own, so memory
 * use is bounded by the longest line, not the file. A line that is not a JSON object with a string
 * {@code type} and an object {@code payload} is skipped and counted, never fatal; bytes that are
 * not UTF-8 are replaced. Lines in the shape Codex writes are read without Jackson's tokenizer
 * where that gives the same line ({@link CodexShapedLine}); every other line goes to Jackson.
 *
 * <p>Codex's compressed {@code .jsonl.zst} rollouts are decompressed as they stream (see
 * {@link CompressedRollouts}); corrupt or truncated zstd data fails the read with an
 * {@link IOException} naming the file.
 */
public final class RolloutReader {

    private static final Logger LOG = LoggerFactory.getLogger(RolloutReader.class);

    /** Longest single JSON string accepted in one line (a huge tool output), in chars. */
    static final int MAX_STRING_LENGTH = 128 * 1024 * 1024;

    static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_STRING_LENGTH).build())
                    .build())
            .build();

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

    /** Gives no payload by its type alone. */
    private static final Predicate<String> NO_TYPE_ALONE = type -> false;

    /** What a full read saw. */
    public record ReadStats(long lines, long malformedLines) {}

    private RolloutReader() {}

    /** Whether the path names a zstd-compressed rollout ({@code .jsonl.zst}), which this reader decompresses. */
    public static boolean isCompressed(Path path) {
        return CompressedRollouts.isCompressed(path);
    }

    /** Opens a rollout file for {@link #read(InputStream, String, Predicate, Consumer)}, decompressing zstd. */
    public static InputStream open(Path rollout) throws IOException {
        return CompressedRollouts.open(rollout);
    }

    /**
     * Streams every well-formed line of {@code rollout} to {@code sink}, in file order.
     *
     * @throws IOException when the file cannot be opened or read, or holds corrupt zstd data
     */
    public static ReadStats read(Path rollout, Consumer<RolloutLine> sink) throws IOException {
        return read(rollout, kind -> true, sink);
    }

    /**
     * Like {@link #read(Path, Consumer)}, but builds the payload only for lines whose kind
     * {@code wantPayload} accepts (asked per line, so the answer may change as the read goes on);
     * other lines arrive with an empty payload object.
     */
    public static ReadStats read(Path rollout, Predicate<RolloutLine.Kind> wantPayload, Consumer<RolloutLine> sink)
            throws IOException {
        return read(rollout, wantPayload, NO_TYPE_ALONE, sink);
    }

    /**
     * Like {@link #read(Path, Predicate, Consumer)}, and a wanted payload whose {@code "type"} is a
     * string {@code typeAlone} accepts arrives as {@code {"type": …}} alone: for a reader that
     * decides on that type only and drops the rest (Phase 1 never renders reasoning). Such a
     * payload is still checked for well-formedness, never built.
     */
    public static ReadStats read(Path rollout, Predicate<RolloutLine.Kind> wantPayload, Predicate<String> typeAlone,
            Consumer<RolloutLine> sink) throws IOException {
        try (InputStream in = CompressedRollouts.open(rollout)) {
            return read(in, rollout.toString(), wantPayload, typeAlone, sink);
        }
    }

    /**
     * Like {@link #read(Path, Predicate, Consumer)}, over the bytes of a rollout from anywhere (a
     * {@link dev.mnemo.spi.SessionStore}); {@code name} identifies it in log lines. The caller closes
     * {@code in}.
     */
    public static ReadStats read(InputStream in, String name, Predicate<RolloutLine.Kind> wantPayload,
            Consumer<RolloutLine> sink) throws IOException {
        return read(in, name, wantPayload, NO_TYPE_ALONE, sink);
    }

    /**
     * Like {@link #read(InputStream, String, Predicate, Consumer)}, with payloads given by their type
     * alone as {@link #read(Path, Predicate, Predicate, Consumer)} says.
     */
    public static ReadStats read(InputStream in, String name, Predicate<RolloutLine.Kind> wantPayload,
            Predicate<String> typeAlone, Consumer<RolloutLine> sink) throws IOException {
        Objects.requireNonNull(typeAlone, "typeAlone");
        long lineNumber = 0;
        long malformed = 0;
        // Lines are split on bytes and parsed from bytes: no UTF-8 decoding into a String first.
        byte[] buffer = new byte[64 * 1024];
        CodexShapedLine shaped = new CodexShapedLine();
        ShapedMiss miss = null;
        int start = 0;
        int end = 0;
        boolean eof = false;
        while (!eof || start < end) {
            // A line in Codex's shape is read straight from the buffer, which finds where it ends.
            if (miss == null || !miss.sameAs(start, buffer, eof)) {
                RolloutLine shapedLine = shaped.readToNewline(lineNumber + 1, buffer, start, end, eof, wantPayload,
                        typeAlone);
                if (shapedLine != null) {
                    lineNumber++;
                    sink.accept(shapedLine);
                    start = shaped.next();
                    continue;
                }
                miss = new ShapedMiss(start, buffer, eof);
            }
            int newline = indexOfNewline(buffer, start, end);
            if (newline < 0 && !eof) {
                if (start > 0) { // keep the partial line, make room after it
                    System.arraycopy(buffer, start, buffer, 0, end - start);
                    end -= start;
                    start = 0;
                } else if (end == buffer.length) {
                    buffer = Arrays.copyOf(buffer, buffer.length * 2);
                }
                int read = in.read(buffer, end, buffer.length - end);
                if (read < 0) {
                    eof = true;
                } else {
                    end += read;
                }
                continue;
            }
            int lineEnd = newline < 0 ? end : newline;
            int length = lineEnd - start;
            if (length > 0 && buffer[lineEnd - 1] == '\r') {
                length--;
            }
            lineNumber++;
            if (!isBlank(buffer, start, length)) {
                Optional<RolloutLine> line = parseLineWithJackson(lineNumber, buffer, start, length, wantPayload, typeAlone);
                if (line.isPresent()) {
                    sink.accept(line.get());
                } else {
                    malformed++;
                    if (malformed <= 3) {
                        LOG.warn("Skipping malformed line {} of rollout {}", lineNumber, name);
                    }
                }
            }
            start = newline < 0 ? end : newline + 1;
        }
        if (malformed > 3) {
            LOG.warn("Skipped {} malformed lines in rollout {}", malformed, name);
        }
        return new ReadStats(lineNumber, malformed);
    }

    /** Parses one line with its payload; empty when it is not a well-formed rollout line. */
    static Optional<RolloutLine> parseLine(long lineNumber, String text) {
        return parseLine(lineNumber, text, kind -> true);
    }

    /**
     * Parses one line; empty when it is not a well-formed rollout line. The payload of a line whose
     * kind {@code wantPayload} rejects is checked for well-formedness but not built (it is given
     * as an empty object), which keeps scans of large files cheap.
     */
    static Optional<RolloutLine> parseLine(long lineNumber, String text, Predicate<RolloutLine.Kind> wantPayload) {
        try (JsonParser parser = MAPPER.createParser(text)) {
            return parse(lineNumber, parser, wantPayload, null);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Where {@link CodexShapedLine} last gave up: at {@code start} of {@code buffer}, with the input
     * ended or not. A line not in Codex's shape, or not yet whole in the buffer, is not read again
     * that way until the buffer is compacted (the line moves to its start), replaced by a larger one
     * or the input ends: a long line arriving in small reads (a decompressing stream) would
     * otherwise be scanned again from its start after each read.
     */
    private record ShapedMiss(int start, byte[] buffer, boolean eof) {
        boolean sameAs(int otherStart, byte[] otherBuffer, boolean otherEof) {
            return start == otherStart && buffer == otherBuffer && eof == otherEof;
        }
    }

    /**
     * {@link #parseLine(long, String, Predicate)} on a line's UTF-8 bytes, with payloads given by
     * their type alone where {@code typeAlone} accepts it. A line that is not valid UTF-8 is decoded
     * with replacement characters and parsed again (payloads built whole), as a text reader would.
     */
    static Optional<RolloutLine> parseLine(long lineNumber, byte[] bytes, int offset, int length,
            Predicate<RolloutLine.Kind> wantPayload, Predicate<String> typeAlone) {
        RolloutLine line = new CodexShapedLine().read(lineNumber, bytes, offset, length, wantPayload, typeAlone);
        return line != null ? Optional.of(line)
                : parseLineWithJackson(lineNumber, bytes, offset, length, wantPayload, typeAlone);
    }

    /**
     * {@link #parseLine(long, byte[], int, int, Predicate, Predicate)} with Jackson: for every line
     * {@link CodexShapedLine} does not read itself (tests read every line both ways and compare).
     */
    static Optional<RolloutLine> parseLineWithJackson(long lineNumber, byte[] bytes, int offset, int length,
            Predicate<RolloutLine.Kind> wantPayload, Predicate<String> typeAlone) {
        PayloadTypePeek peek = typeAlone == NO_TYPE_ALONE ? null : new PayloadTypePeek(bytes, offset, length, typeAlone);
        try (JsonParser parser = MAPPER.createParser(bytes, offset, length)) {
            return parse(lineNumber, parser, wantPayload, peek);
        } catch (PayloadTypePeek.Mismatch e) {
            return parseLineWithJackson(lineNumber, bytes, offset, length, wantPayload, NO_TYPE_ALONE);
        } catch (CharConversionException | JsonParseException e) {
            return parseLine(lineNumber, new String(bytes, offset, length, StandardCharsets.UTF_8), wantPayload);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** @param peek decides which wanted payloads are given by their type alone; null: none */
    private static Optional<RolloutLine> parse(long lineNumber, JsonParser parser,
            Predicate<RolloutLine.Kind> wantPayload, PayloadTypePeek peek) throws IOException {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            return Optional.empty();
        }
        String timestamp = null;
        String type = null;
        JsonNode payload = null;
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (field.equals("timestamp") && value == JsonToken.VALUE_STRING) {
                timestamp = parser.getText();
            } else if (field.equals("type") && value == JsonToken.VALUE_STRING) {
                type = parser.getText();
            } else if (field.equals("payload") && value == JsonToken.START_OBJECT) {
                if (type != null && !wantPayload.test(RolloutLine.Kind.of(type))) {
                    parser.skipChildren();
                    payload = MAPPER.createObjectNode();
                } else {
                    String typeAlone = peek == null ? null : peek.typeAloneAt(parser);
                    payload = typeAlone == null ? parser.readValueAsTree() : peek.skipRest(parser, typeAlone);
                }
            } else {
                parser.skipChildren();
            }
        }
        if (token != JsonToken.END_OBJECT || parser.nextToken() != null || type == null || payload == null) {
            return Optional.empty();
        }
        return Optional.of(new RolloutLine(lineNumber, timestamp, RolloutLine.Kind.of(type), type, payload));
    }

    /**
     * The index of the first {@code '\n'} in {@code bytes[from, to)}, or -1; eight bytes at a time
     * (a newline byte is found as a zero byte of the word XOR {@code 0x0A…}).
     */
    static int indexOfNewline(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i) ^ NEWLINES;
            long zeros = (word - 0x0101010101010101L) & ~word & 0x8080808080808080L;
            if (zeros != 0) { // the lowest flagged byte is always a real zero (borrows only run upwards)
                return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static boolean isBlank(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n' && b != 0x0B && b != 0x0C) {
                return false;
            }
        }
        return true;
    }

    static Optional<Instant> timestamp(String text) {
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    static Optional<Instant> timestamp(JsonNode node) {
        return node != null && node.isTextual() ? timestamp(node.asText()) : Optional.empty();
    }
}
