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

    /** A temporary folder of each test; the workspace's root is {@code memories} inside it. */
    @TempDir
    protected Path temp;

    /** The root of the workspace under test, {@code <temp>/memories}; not created by the suite. */
    protected Path root;
    /** The workspace under test, opened on {@link #root} before each test and closed after it. */
    protected MemoryWorkspace workspace;

    /**
     * Opens the implementation under test for {@code root} (which may not exist yet).
     *
     * @param root the memory root the workspace manages
     * @return an open workspace, closed by the suite
     */
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

    /**
     * A record with {@code threads} selected inputs; an id {@code cN} finished N hours into the test day.
     *
     * @param id the consolidation's id, {@code c} followed by a number
     * @param threads how many selected inputs it holds, {@code thread-1} onwards
     * @return the record, with model {@code gpt-test}
     * @throws NumberFormatException if {@code id} holds no digit
     */
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
     *
     * @param retention how many consolidations the workspace keeps, passed to each commit
     * @param memoryTexts the text of {@code MEMORY.md} for each consolidation, in order
     * @throws IOException if a file cannot be written
     */
    protected void commitEach(int retention, String... memoryTexts) throws IOException {
        workspace.prepare();
        for (int i = 0; i < memoryTexts.length; i++) {
            write("MEMORY.md", memoryTexts[i] + "\n");
            workspace.commit(record("c" + (i + 1), 1), retention);
        }
    }

    /**
     * The time {@code index} hours after the start of the test day, 2026-03-01 UTC.
     *
     * @param index hours after midnight
     * @return the instant
     */
    protected static Instant at(int index) {
        return Instant.parse("2026-03-01T00:00:00Z").plusSeconds(3600L * index);
    }

    /**
     * The files under the root, outside hidden folders (a history's own store), whose text holds
     * {@code text}; paths relative to the root.
     *
     * @param text the text to look for
     * @return the paths, with {@code /} separators, sorted; empty if the root does not exist
     * @throws IOException if the root cannot be walked
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

    /**
     * Writes {@code content} to {@code path} under the root in UTF-8, creating folders as needed.
     *
     * @param path the file, relative to the root
     * @param content the file's whole new text
     * @throws IOException if the file cannot be written
     */
    protected void write(String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    /**
     * Lines {@code from}..{@code to}, one per line, line {@code upper} in upper case.
     *
     * @param from the number of the first line
     * @param to the number of the last line, included
     * @param upper the number of the line written {@code LINEn} instead of {@code linen}
     * @return the lines, each ended by a newline
     */
    protected static String lines(int from, int to, int upper) {
        return IntStream.rangeClosed(from, to)
                .mapToObj(i -> i == upper ? "LINE" + i : "line" + i)
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
