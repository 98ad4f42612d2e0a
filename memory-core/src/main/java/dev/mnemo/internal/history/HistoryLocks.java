package dev.mnemo.internal.history;

import dev.mnemo.MemoryStoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The history file's locks: a {@link FileLock} for other processes (exclusive to write, shared to
 * read), and in front of it a read-write lock per file for this JVM's threads, because one JVM may
 * not hold two overlapping {@link FileLock}s on a file (the second would fail with
 * {@link java.nio.channels.OverlappingFileLockException}). The per-file map is the one piece of
 * static state: two engines of one JVM on one home must share the lock, and an engine cannot know
 * of the other. It holds one small lock per history file ever opened.
 *
 * <p>Unlike Codex, which gives up after ten tries 100 ms apart and loses the line, a writer waits
 * for the lock: the operating system queues waiters, and a holder keeps it only for one write
 * (and, past {@code max_bytes}, one trim).
 */
final class HistoryLocks {

    /** Work done while a lock is held. */
    @FunctionalInterface
    interface Work<T> {
        T run(FileChannel channel) throws IOException;
    }

    private static final ConcurrentHashMap<Path, ReentrantReadWriteLock> IN_THIS_JVM = new ConcurrentHashMap<>();

    private HistoryLocks() {}

    /** Runs {@code work} holding the exclusive lock, on a channel that may read, write and create. */
    static <T> T exclusive(Path file, Work<T> work) {
        Lock jvm = IN_THIS_JVM.computeIfAbsent(file, f -> new ReentrantReadWriteLock()).writeLock();
        jvm.lock();
        try (FileChannel channel = HistoryPermissions.openOwnerOnly(file);
                FileLock ignored = channel.lock()) {
            return work.run(channel);
        } catch (IOException e) {
            throw new MemoryStoreException("cannot write the message history " + file + ": " + e.getMessage(), e);
        } finally {
            jvm.unlock();
        }
    }

    /** Runs {@code work} holding a shared lock; empty when the file does not exist. */
    static <T> Optional<T> shared(Path file, Work<T> work) {
        Lock jvm = IN_THIS_JVM.computeIfAbsent(file, f -> new ReentrantReadWriteLock()).readLock();
        jvm.lock();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                FileLock ignored = channel.lock(0, Long.MAX_VALUE, true)) {
            return Optional.ofNullable(work.run(channel));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new MemoryStoreException("cannot read the message history " + file + ": " + e.getMessage(), e);
        } finally {
            jvm.unlock();
        }
    }
}
