package dev.mnemo.internal.rollout;

import dev.mnemo.spi.OwnerOnlyFiles;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.SessionStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The default {@link SessionStore}: rollouts as files under
 * {@code <home>/sessions/YYYY/MM/DD/rollout-<local-ts>-<id>.jsonl} (read sheet §5.1). Every line is
 * appended through a channel opened for that line alone, so a crash leaves whole lines only and an
 * idle conversation holds no file open.
 */
public final class FileSessionStore implements SessionStore {

    private static final int MAX_PLAIN_FILE_ID_CHARS = 80;
    private static final int FILE_ID_PREFIX_CHARS = 48;

    /**
     * What naming a rollout file needs, made when the first file is named rather than with the store:
     * an engine that records nothing (a status check) then never initialises java.time's formatters.
     */
    private static final class Naming {
        static final DateTimeFormatter FILE_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss");
        static final Pattern UNSAFE_FILE_CHARS = Pattern.compile("[^A-Za-z0-9._-]");
    }

    private final Path sessionsDir;
    private final Clock clock;

    /** @param clock its zone names the dated folders and files */
    public FileSessionStore(Path sessionsDir, Clock clock) {
        this.sessionsDir = Objects.requireNonNull(sessionsDir, "sessionsDir").toAbsolutePath().normalize();
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String name() {
        return "files:" + sessionsDir;
    }

    @Override
    public Writer startOrContinue(SessionContext session, Optional<ThreadInfo> earlier, Instant now)
            throws IOException {
        Optional<Path> continued = earlier.filter(this::holds).map(ThreadInfo::rolloutPath);
        Path file = continued.orElseGet(() -> rolloutPath(session, now));
        OwnerOnlyFiles.createFolders(file.getParent()); // 0700, and each rollout 0600 (FileWriter)
        return new FileWriter(file.toAbsolutePath(), continued.isPresent());
    }

    /** A rollout this store wrote earlier (under its folder) that is still there. */
    @Override
    public boolean holds(ThreadInfo thread) {
        Path absolute = thread.rolloutPath().toAbsolutePath().normalize();
        return absolute.startsWith(sessionsDir) && Files.isRegularFile(absolute)
                && absolute.getFileName().toString().endsWith(".jsonl");
    }

    @Override
    public InputStream open(ThreadInfo thread) throws IOException {
        return Files.newInputStream(thread.rolloutPath());
    }

    @Override
    public boolean delete(ThreadInfo thread) throws IOException {
        Path absolute = thread.rolloutPath().toAbsolutePath().normalize();
        return absolute.startsWith(sessionsDir) && Files.deleteIfExists(absolute);
    }

    /** {@code sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl}, in the clock's local time. */
    Path rolloutPath(SessionContext session, Instant now) {
        LocalDateTime local = LocalDateTime.ofInstant(now, clock.getZone());
        String id = fileId(session.threadId());
        return sessionsDir.resolve(String.format("%04d", local.getYear()))
                .resolve(String.format("%02d", local.getMonthValue()))
                .resolve(String.format("%02d", local.getDayOfMonth()))
                .resolve("rollout-" + Naming.FILE_TIMESTAMP.format(local) + "-" + id + ".jsonl");
    }

    /**
     * The thread id as it appears in a file name: the id itself when it is short and made of
     * {@code [A-Za-z0-9._-]} only; otherwise its first {@value #FILE_ID_PREFIX_CHARS} characters
     * with the others as {@code _}, then {@code -} and 12 hex digits of its SHA-256, so ids that
     * differ only in unsafe characters ({@code a/b}, {@code a_b}) never share a file and a
     * 300-character id still makes a valid name. The real id is in the {@code session_meta} line.
     */
    public static String fileId(String threadId) {
        String safe = Naming.UNSAFE_FILE_CHARS.matcher(threadId).replaceAll("_");
        if (safe.equals(threadId) && safe.length() <= MAX_PLAIN_FILE_ID_CHARS) {
            return safe;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(threadId.getBytes(StandardCharsets.UTF_8));
            return safe.substring(0, Math.min(safe.length(), FILE_ID_PREFIX_CHARS)) + "-"
                    + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    @Override
    public String toString() {
        return name();
    }

    private record FileWriter(Path rolloutPath, boolean continued) implements Writer {
        @Override
        public void append(byte[] line) throws IOException {
            ByteBuffer bytes = ByteBuffer.wrap(line);
            try (FileChannel channel = FileChannel.open(rolloutPath, java.util.Set.of(StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND), OwnerOnlyFiles.fileAttributes(rolloutPath))) {
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            }
        }
    }
}
