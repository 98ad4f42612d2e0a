package dev.mnemo.testkit.contract;

import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.SelectedInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fixtures shared by the {@link MemoryWorkspace} contracts: the implementation under test opened
 * on a memory root inside each test's temp folder (the root may not exist yet), closed after the
 * test, and shorthands for writing files and committing consolidations with plain {@code java.nio}.
 */
public abstract class MemoryWorkspaceContractSupport {

    /** The name of the transient diff file Phase 2 writes; never part of a baseline. */
    protected static final String DIFF_FILE = "phase2_workspace_diff.md";

    @TempDir
    protected Path temp;

    protected Path root;
    protected MemoryWorkspace workspace;

    /** Opens the implementation under test for {@code root} (which may not exist yet). */
    protected abstract MemoryWorkspace open(Path root);

    @BeforeEach
    void openWorkspace(TestInfo test) {
        if (test.getTestClass().map(testClass -> testClass == getClass()).orElse(true)) {
            root = temp.resolve("memories");
            workspace = open(root);
        }
        // else: a nested contract's test, which opens its own workspace (as the store contracts do)
    }

    @AfterEach
    void closeWorkspace() {
        if (workspace != null) {
            workspace.close();
        }
    }

    /** A record with {@code threads} selected inputs; an id {@code cN} finished N hours into the test day. */
    protected static ConsolidationRecord record(String id, int threads) {
        List<SelectedInput> selected = IntStream.rangeClosed(1, threads)
                .mapToObj(i -> new SelectedInput("thread-" + i, Instant.ofEpochSecond(1_700_000_000L + i)))
                .toList();
        int index = Integer.parseInt(id.replaceAll("\\D", ""));
        return new ConsolidationRecord(id, at(index), selected, "gpt-test", new TokenUsage(1000, 200, 300, 50));
    }

    /**
     * Prepares the workspace, then commits consolidations {@code c1}, {@code c2}, … keeping
     * {@code retention}, each with {@code MEMORY.md} holding the next of {@code memoryTexts} (one line).
     */
    protected void commitEach(int retention, String... memoryTexts) throws IOException {
        workspace.prepare();
        for (int i = 0; i < memoryTexts.length; i++) {
            write("MEMORY.md", memoryTexts[i] + "\n");
            workspace.commit(record("c" + (i + 1), 1), retention);
        }
    }

    protected static Instant at(int index) {
        return Instant.parse("2026-03-01T00:00:00Z").plusSeconds(3600L * index);
    }

    /**
     * The files under the root, outside hidden folders (a history's own store), whose text holds
     * {@code text}; paths relative to the root.
     */
    protected List<String> filesHolding(String text) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile)
                    .map(root::relativize)
                    .filter(path -> StreamSupport.stream(path.spliterator(), false)
                            .noneMatch(segment -> segment.toString().startsWith(".")))
                    .filter(path -> {
                        try {
                            return new String(Files.readAllBytes(root.resolve(path)), StandardCharsets.UTF_8)
                                    .contains(text);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .map(path -> path.toString().replace('\\', '/'))
                    .sorted()
                    .toList();
        }
    }

    protected void write(String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    /** Lines {@code from}..{@code to}, one per line, line {@code upper} in upper case. */
    protected static String lines(int from, int to, int upper) {
        return IntStream.rangeClosed(from, to)
                .mapToObj(i -> i == upper ? "LINE" + i : "line" + i)
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
