package dev.mnemo.internal.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.HistoryEntry;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.spi.HistoryStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code <home>/history.jsonl}: one line {@code {"session_id","ts","text"}} per user message, in
 * Codex's format, mode 0600 (what goes in, redacted, is decided by {@link EngineHistory}).
 *
 * <p>Writing. Each append takes an exclusive lock on the file ({@link HistoryLocks}) and writes the
 * whole line with one positioned write at the end, or, when the line would take the file past
 * {@code max_bytes}, rewrites it trimmed with the line at its end, all before letting go; so lines
 * from several processes never interleave, a trim never races an append, and the file is never
 * seen past {@code max_bytes}. Trimming gives what Codex's does (append, then trim): the oldest
 * whole lines are dropped until the file is at most
 * {@code max(floor(0.8 · max_bytes), length of the newest line)}; the newest line always stays.
 *
 * <p>Offsets. Codex looks an entry up by line number, which after a trim silently names another
 * entry. Here an offset is {@code generation << 40 | line number}; every rewrite (a trim, a deleted
 * thread's lines, a file found empty) first bumps the generation kept in
 * {@code history.jsonl.generation}, so an offset from before it finds nothing instead of a
 * different entry ({@link HistoryOffsets}).
 */
public final class HistoryFile implements HistoryStore {

    /** The file's name inside the Mnemo home, as in Codex's home. */
    public static final String FILE_NAME = "history.jsonl";

    private static final Logger LOG = LoggerFactory.getLogger(HistoryFile.class);

    private final Path file;
    private final HistoryOffsets offsets;

    /** @param home the Mnemo home; the file is {@code <home>/history.jsonl} */
    public HistoryFile(Path home) {
        this.file = Objects.requireNonNull(home, "home").toAbsolutePath().normalize().resolve(FILE_NAME);
        this.offsets = new HistoryOffsets(file.resolveSibling(FILE_NAME + ".generation"));
    }

    /** Where the lines are. */
    public Path file() {
        return file;
    }

    @Override
    public void append(String sessionId, long ts, String text, long maxBytes) {
        // 1. The whole line first, so one write puts it in the file.
        byte[] bytes = HistoryStore.jsonLine(sessionId, ts, text).getBytes(StandardCharsets.UTF_8);
        // 2. Under the exclusive lock: the mode, the write at the end, the trim.
        HistoryLocks.exclusive(file, channel -> {
            HistoryPermissions.ownerOnly(file);
            long size = channel.size();
            if (size == 0) {
                offsets.bump(); // a new (or emptied, or replaced) file: offsets into an older one die
            }
            boolean torn = size > 0 && lastByte(channel, size) != '\n';
            ByteBuffer out = ByteBuffer.allocate(bytes.length + (torn ? 1 : 0));
            if (torn) {
                out.put((byte) '\n'); // a line cut short by a crash stays alone, unparsed
            }
            out.put(bytes).flip();
            if (maxBytes > 0 && size + out.remaining() > maxBytes) {
                appendTrimmed(channel, out, bytes.length, maxBytes);
            } else {
                writeFully(channel, out, size);
            }
            return null;
        });
    }

    @Override
    public int removeSession(String sessionId) {
        Objects.requireNonNull(sessionId, "sessionId");
        if (!Files.exists(file)) {
            return 0;
        }
        return HistoryLocks.exclusive(file, channel -> {
            byte[] all = readAll(channel);
            ByteBuffer kept = ByteBuffer.allocate(all.length);
            int removed = 0;
            int start = 0;
            for (int end = indexOf(all, start); end >= 0; end = indexOf(all, start)) {
                HistoryEntry entry = parse(all, start, end, 0);
                if (entry != null && entry.sessionId().equals(sessionId)) {
                    removed++;
                } else {
                    kept.put(all, start, end + 1 - start);
                }
                start = end + 1;
            }
            if (removed > 0) {
                kept.put(all, start, all.length - start).flip();
                offsets.bump();
                rewrite(channel, kept);
                LOG.debug("removed {} history line(s) of thread {}", removed, sessionId);
            }
            return removed;
        });
    }

    @Override
    public List<HistoryEntry> recent(int limit) {
        return matching(limit, entry -> true);
    }

    @Override
    public List<HistoryEntry> search(String text, int limit) {
        String needle = Objects.requireNonNull(text, "text").toLowerCase(java.util.Locale.ROOT);
        return matching(limit, entry -> entry.text().toLowerCase(java.util.Locale.ROOT).contains(needle));
    }

    @Override
    public Optional<HistoryEntry> entry(long offset) {
        if (offset < 0 || !Files.exists(file)) {
            return Optional.empty();
        }
        return HistoryLocks.<Optional<HistoryEntry>>shared(file, channel -> {
            long generation = offsets.current();
            if (HistoryOffsets.generation(offset) != generation) {
                return Optional.empty(); // written before a trim or a removal: it would name another line
            }
            long wanted = HistoryOffsets.line(offset);
            LineReader lines = new LineReader(channel);
            for (long index = 0; lines.next(); index++) {
                if (index == wanted) {
                    return Optional.ofNullable(lines.entry(offset));
                }
            }
            return Optional.empty();
        }).orElse(Optional.empty());
    }

    private List<HistoryEntry> matching(int limit, Predicate<HistoryEntry> wanted) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, was " + limit);
        }
        if (limit == 0 || !Files.exists(file)) {
            return List.of();
        }
        return HistoryLocks.<List<HistoryEntry>>shared(file, channel -> {
            long generation = offsets.current();
            ArrayDeque<HistoryEntry> newest = new ArrayDeque<>();
            LineReader lines = new LineReader(channel);
            for (long index = 0; lines.next(); index++) {
                HistoryEntry entry = lines.entry(HistoryOffsets.offset(generation, index));
                if (entry != null && wanted.test(entry)) {
                    if (newest.size() == limit) {
                        newest.removeFirst();
                    }
                    newest.addLast(entry);
                }
            }
            return List.copyOf(newest);
        }).orElse(List.of());
    }

    /**
     * Codex's trim of the file with {@code line} appended, done as one rewrite so that the file on
     * disk is never past {@code max_bytes} (a reader of another thread or process never sees it
     * over): the oldest whole lines go until the size is at most the soft cap
     * {@code max(floor(0.8 · max_bytes), length of the newest line)} or only the newest is left.
     */
    private void appendTrimmed(FileChannel channel, ByteBuffer line, int newestLength, long max) throws IOException {
        byte[] old = readAll(channel);
        byte[] all = Arrays.copyOf(old, old.length + line.remaining());
        line.get(all, old.length, line.remaining());
        long softCap = Math.min(Math.max((long) Math.floor(max * HistoryStore.SOFT_CAP_RATIO), 1), max);
        long target = Math.max(softCap, newestLength);
        int start = 0;
        long remaining = all.length;
        while (remaining > target) {
            int end = indexOf(all, start);
            if (end < 0 || end + 1 >= all.length) {
                break; // the newest line is never dropped
            }
            remaining -= end + 1 - start;
            start = end + 1;
        }
        if (start > 0) {
            offsets.bump();
        }
        rewrite(channel, ByteBuffer.wrap(all, start, all.length - start));
        LOG.debug("history {} trimmed from {} to {} bytes (max_bytes {})", file, all.length, remaining, max);
    }

    /**
     * Writes {@code kept} from the start, then cuts the rest: a crash between the two leaves extra
     * old lines, never fewer. Readers are locked out meanwhile.
     */
    private static void rewrite(FileChannel channel, ByteBuffer kept) throws IOException {
        long length = kept.remaining();
        writeFully(channel, kept, 0);
        channel.truncate(length);
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }

    private static byte lastByte(FileChannel channel, long size) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        channel.read(one, size - 1);
        return one.get(0);
    }

    private byte[] readAll(FileChannel channel) throws IOException {
        long size = channel.size();
        if (size > Integer.MAX_VALUE - 16) {
            throw new MemoryStoreException("history " + file + " is " + size + " bytes, too large to rewrite; set "
                    + "[history] max_bytes or move the file away");
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) size);
        while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) >= 0) {
            // reads until full
        }
        return buffer.array();
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The entry of the line {@code bytes[start, end)}; null when it is not a history line. */
    static HistoryEntry parse(byte[] bytes, int start, int end, long offset) {
        try {
            JsonNode node = Json.MAPPER.readTree(bytes, start, end - start);
            JsonNode session = node == null ? null : node.get("session_id");
            JsonNode ts = node == null ? null : node.get("ts");
            JsonNode text = node == null ? null : node.get("text");
            if (session == null || !session.isTextual() || ts == null || !ts.canConvertToLong() || text == null
                    || !text.isTextual()) {
                return null;
            }
            return new HistoryEntry(session.textValue(), ts.longValue(), text.textValue(), offset);
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "HistoryFile[" + file + "]";
    }

    /**
     * The mapper lines are read with, made when the first line is read: creating an
     * {@code ObjectMapper} loads some 380 classes of Jackson databind, 140 ms of the cold start of an
     * engine that never reads its history (every {@code mnemo status}).
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }
}
