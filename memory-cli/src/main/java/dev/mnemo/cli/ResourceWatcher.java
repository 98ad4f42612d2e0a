package dev.mnemo.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a few files cheaply: every {@code interval}, on one daemon thread, it compares each
 * file's size, modification time and identity (a rename over it gives a new one) with what it saw
 * last, and tells {@code changed} the name of each file that was written, replaced, created or
 * removed since. Nothing is read; a file that is not there is a state like any other.
 *
 * <p>The callback runs on the watcher's thread, as do the tasks handed to {@link #execute}, one
 * at a time.
 */
final class ResourceWatcher implements AutoCloseable {

    /** How often {@code mnemo mcp} looks at its resources' files. */
    static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(ResourceWatcher.class);

    /** What a file looked like: absent, or its size, modification time and identity. */
    private record State(boolean exists, long size, long modified, Object identity) {
        static final State ABSENT = new State(false, -1, -1, null);
    }

    private final ScheduledExecutorService executor;
    private final Consumer<String> changed;
    private final Map<String, Path> files = new LinkedHashMap<>();
    private final Map<String, State> seen = new LinkedHashMap<>();

    /**
     * A watcher polling on its own daemon thread every {@code interval}.
     *
     * @param changed told the name of each file that changed, on the watcher's thread
     */
    ResourceWatcher(Duration interval, Consumer<String> changed) {
        this.executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "mnemo-mcp-resources");
            thread.setDaemon(true);
            return thread;
        });
        this.changed = Objects.requireNonNull(changed, "changed");
        long millis = Math.max(1, interval.toMillis());
        executor.scheduleWithFixedDelay(this::poll, millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Watches {@code names}, each for its file, from now on, and no others: a name already watched
     * keeps what was seen of it, a new one is seen as it is when this returns (a change after that
     * is reported).
     */
    synchronized void watchOnly(Map<String, Path> names) {
        files.keySet().retainAll(names.keySet());
        seen.keySet().retainAll(names.keySet());
        names.forEach((name, file) -> {
            if (!file.equals(files.put(name, file))) {
                seen.put(name, stateOf(file));
            }
        });
    }

    /** Runs {@code task} on the watcher's thread, after what runs there now; nothing once closed. */
    void execute(Runnable task) {
        if (!executor.isShutdown()) {
            try {
                executor.execute(() -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        LOG.warn("The memory resources' watcher failed a task", e);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException closedMeanwhile) {
                // closed between the check and the call: nothing more to watch
            }
        }
    }

    /** Looks at every watched file once, reporting those that changed since last seen. */
    private void poll() {
        for (String name : changedSinceSeen()) {
            try {
                changed.accept(name);
            } catch (RuntimeException e) {
                LOG.warn("Could not report the change of the memory resource {}", name, e);
            }
        }
    }

    private synchronized List<String> changedSinceSeen() {
        List<String> names = new ArrayList<>();
        files.forEach((name, file) -> {
            State now = stateOf(file);
            if (!now.equals(seen.put(name, now))) {
                names.add(name);
            }
        });
        return names;
    }

    /** Stops watching; the thread ends. */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    private static State stateOf(Path file) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            return new State(true, attributes.size(), attributes.lastModifiedTime().toMillis(), attributes.fileKey());
        } catch (IOException e) {
            return State.ABSENT;
        }
    }
}
