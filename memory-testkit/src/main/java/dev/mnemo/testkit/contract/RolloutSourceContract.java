package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.RolloutSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link RolloutSource} must do: the first scan returns every readable rollout as a
 * thread, later scans only new and changed ones; unreadable files are skipped and reported in
 * {@link RolloutSource#unreadable()}, never thrown; a missing folder is empty; and scanning never
 * writes into the folder it reads.
 *
 * <p>An implementation's test extends this class and provides how to open the source on a folder
 * and how its producer writes rollouts there: {@link #open(Path)}, {@link #addRollout(Path, int)},
 * {@link #continueRollout(Path, String)} and {@link #addUnreadable(Path)}. The suite calls them on
 * a fresh temp folder per test.
 */
public abstract class RolloutSourceContract {

    /** The folder the source under test reads; empty at the start of each test. */
    @TempDir
    protected Path folder;

    /**
     * A new source reading {@code folder} (which may be empty, or missing).
     *
     * @param folder the folder the source reads rollouts from
     * @return the source under test
     */
    protected abstract RolloutSource open(Path folder);

    /**
     * Writes the rollout of a new thread into {@code folder}, as the source's producer would, and
     * returns its thread id. The suite calls it with {@code n} = 0, 1, 2 (at most three times per
     * test); each {@code n} must give a different thread.
     *
     * @param folder the folder the source reads
     * @param n the rollout's number in the test: 0, 1 or 2
     * @return the new thread's id, as the source reports it
     * @throws IOException if the rollout cannot be written
     */
    protected abstract String addRollout(Path folder, int n) throws IOException;

    /**
     * Adds to the rollout of {@code threadId} as a session that goes on would (the file then changes).
     *
     * @param folder the folder the source reads
     * @param threadId a thread id {@link #addRollout} returned
     * @throws IOException if the rollout cannot be written
     */
    protected abstract void continueRollout(Path folder, String threadId) throws IOException;

    /**
     * Writes a file where the source looks for rollouts that it cannot read as one (for Codex: a
     * rollout without {@code session_meta}), and returns its path.
     *
     * @param folder the folder the source reads
     * @return the unreadable file's path, as the source would report it
     * @throws IOException if the file cannot be written
     */
    protected abstract Path addUnreadable(Path folder) throws IOException;

    @Test
    void name_isNotBlank() {
        assertThat(open(folder).name()).isNotBlank();
    }

    @Test
    void scan_ofAnEmptyOrMissingFolder_returnsNothing() {
        assertThat(open(folder).scan()).isEmpty();
        assertThat(open(folder.resolve("missing")).scan()).isEmpty();
        assertThat(open(folder.resolve("missing")).unreadable()).isEmpty();
    }

    @Test
    void scan_firstReturnsEveryReadableRolloutWithItsThreadFields() throws IOException {
        List<String> ids = List.of(addRollout(folder, 0), addRollout(folder, 1), addRollout(folder, 2));

        List<ThreadInfo> threads = open(folder).scan();

        assertThat(threads).extracting(ThreadInfo::id).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(threads).allSatisfy(thread -> {
            assertThat(thread.rolloutPath()).isRegularFile();
            assertThat(thread.rolloutPath().toAbsolutePath().normalize())
                    .startsWith(folder.toAbsolutePath().normalize());
            assertThat(thread.source()).isNotBlank();
            assertThat(thread.updatedAt()).isAfterOrEqualTo(thread.createdAt());
        });
    }

    @Test
    void scan_laterReturnsOnlyNewAndChangedRollouts() throws IOException {
        addRollout(folder, 0);
        String continued = addRollout(folder, 1);
        RolloutSource source = open(folder);
        assertThat(source.scan()).hasSize(2);
        assertThat(source.scan()).as("nothing changed").isEmpty();

        continueRollout(folder, continued);
        String added = addRollout(folder, 2);

        assertThat(source.scan()).extracting(ThreadInfo::id).containsExactlyInAnyOrder(continued, added);
        assertThat(source.scan()).isEmpty();
    }

    @Test
    void scan_aNewSourceStartsOverWithEveryRollout() throws IOException {
        addRollout(folder, 0);
        addRollout(folder, 1);
        open(folder).scan();

        assertThat(open(folder).scan()).hasSize(2);
    }

    @Test
    void scan_skipsAnUnreadableFileAndReportsItWithAReason() throws IOException {
        String readable = addRollout(folder, 0);
        Path unreadable = addUnreadable(folder);
        RolloutSource source = open(folder);

        AtomicReference<List<ThreadInfo>> threads = new AtomicReference<>();
        assertThatCode(() -> threads.set(source.scan())).doesNotThrowAnyException();

        assertThat(threads.get()).extracting(ThreadInfo::id).containsExactly(readable);
        assertThat(source.unreadable()).hasEntrySatisfying(unreadable,
                reason -> assertThat(reason).isNotBlank());
    }

    @Test
    void scan_neverChangesTheFolder() throws IOException {
        addRollout(folder, 0);
        addRollout(folder, 1);
        addUnreadable(folder);
        Map<String, String> before = snapshot();

        RolloutSource source = open(folder);
        source.scan();
        source.scan();

        assertThat(snapshot()).isEqualTo(before);
    }

    /** Every path below the folder with its modification time and, for files, a hash of the content. */
    private Map<String, String> snapshot() throws IOException {
        Map<String, String> state = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                String value = Files.getLastModifiedTime(path).toString();
                if (Files.isRegularFile(path)) {
                    value += " " + sha256(Files.readAllBytes(path));
                }
                state.put(folder.relativize(path).toString(), value);
            }
        }
        return state;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
