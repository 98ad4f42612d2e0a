package dev.mnemo.workspace.git;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryWorkspaceException;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.OwnerOnlyFiles;
import dev.mnemo.spi.WorkspaceDiff;
import dev.mnemo.workspace.git.BaselineRepository.HistoryCommit;
import dev.mnemo.workspace.git.WorkingFiles.FileState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory workspace backed by a private JGit repository at {@code <memoryRoot>/.git}.
 *
 * <p>The HEAD commit is the baseline Phase 2 diffs against. The first commit is a parentless
 * baseline of whatever the folder held; each successful consolidation then adds a commit whose
 * message ends in {@code Mnemo-*} trailers recording the consolidation (see {@link #history()}).
 * Keeping fewer entries, or {@link #squashHistory() squashing}, rewrites the history and removes
 * every object no longer reachable, so deleted text does not survive in {@code .git}.
 *
 * <p>One instance keeps one repository open until {@link #close()}; its methods are synchronized.
 * Failures are {@link MemoryWorkspaceException}s naming the path.
 */
public final class GitMemoryWorkspace implements MemoryWorkspace {

    private static final Logger LOG = LoggerFactory.getLogger(GitMemoryWorkspace.class);

    private final Path root;
    private final Path gitDir;
    private final Clock clock;
    private final WorkingFiles working;
    private BaselineRepository repository;
    /** What file times are compared with to decide whether a stamp can be trusted (see BaselineRepository#isUsable). */
    private Clock wallClock = Clock.systemUTC();

    private GitMemoryWorkspace(Path root, Clock clock) {
        this.root = root;
        this.gitDir = root.resolve(WorkingFiles.GIT_DIR);
        this.clock = clock;
        this.working = new WorkingFiles(root);
    }

    /**
     * A workspace for {@code memoryRoot}, timing rollbacks and baselines by the system clock. Touches no file yet.
     *
     * @param memoryRoot the memory folder ({@code <home>/memories})
     * @return the workspace
     */
    public static GitMemoryWorkspace open(Path memoryRoot) {
        return open(memoryRoot, Clock.systemUTC());
    }

    /**
     * A workspace for {@code memoryRoot} whose rollback and baseline commits are timed by {@code clock}.
     *
     * @param memoryRoot the memory folder ({@code <home>/memories})
     * @param clock the time of rollback and baseline commits
     * @return the workspace
     */
    public static GitMemoryWorkspace open(Path memoryRoot, Clock clock) {
        Objects.requireNonNull(memoryRoot, "memoryRoot");
        Objects.requireNonNull(clock, "clock");
        return new GitMemoryWorkspace(memoryRoot.toAbsolutePath().normalize(), clock);
    }

    @Override
    public Path root() {
        return root;
    }

    @Override
    public synchronized void prepare() {
        try {
            Files.createDirectories(root);
            if (repository != null && repository.isUsable()) {
                return;
            }
            closeRepository();
            if (Files.isSymbolicLink(gitDir) || (Files.exists(gitDir) && !Files.isDirectory(gitDir))) {
                LOG.warn("Removing {}: it is not a folder (a link is removed, never followed)", gitDir);
                Files.delete(gitDir);
            }
            if (!Files.isDirectory(gitDir, LinkOption.NOFOLLOW_LINKS)) {
                resetBaseline("Created the memory history.");
                return;
            }
            repository = openOrNull();
            if (repository == null || !repository.isUsable()) {
                LOG.warn("Memory history at {} has no readable HEAD commit; re-creating it from the current files", gitDir);
                resetBaseline("Recovered an unborn or broken memory history.");
            }
        } catch (IOException | RuntimeException e) {
            throw failure("prepare", gitDir, e);
        }
    }

    @Override
    public synchronized WorkspaceDiff diff() {
        prepare();
        try {
            ObjectId head = repository.head().orElseThrow();
            return ListingDiff.compare(repository.files(head), this::blob, working.scan(), working::content);
        } catch (IOException | RuntimeException e) {
            throw failure("diff", root, e);
        }
    }

    private byte[] blob(String path, FileState state) throws IOException {
        return repository.blob(state.id());
    }

    @Override
    public synchronized Consolidation commit(ConsolidationRecord record, int retention) {
        Objects.requireNonNull(record, "record");
        if (retention < 0) {
            throw new IllegalArgumentException("retention must not be negative, was " + retention);
        }
        String message = CommitMessages.consolidation(record, Optional.empty());
        prepare();
        try {
            if (retention == 0) {
                resetBaseline("Consolidation " + record.id() + " with no history kept.");
            } else {
                ObjectId parent = repository.head().orElseThrow();
                ObjectId tree = repository.writeTree(working, working.scan());
                ObjectId commit = repository.commit(tree, List.of(parent), message, record.at());
                repository.moveHead(commit, parent);
                trimHistory(retention);
                OwnerOnlyFiles.restrictTree(root);
            }
            LOG.info("Committed consolidation {} ({} memories) to {}", record.id(), record.selected().size(), gitDir);
            return CommitMessages.summary(record);
        } catch (IOException | RuntimeException e) {
            throw failure("commit consolidation " + record.id() + " to", gitDir, e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Read from the commit trailers; a rollback appears as its own entry. The baseline commit
     * is not listed.
     */
    @Override
    public synchronized List<Consolidation> history() {
        List<Consolidation> history = new ArrayList<>();
        for (HistoryCommit commit : keptChain()) {
            recordOf(commit).map(CommitMessages::summary).ifPresent(history::add);
        }
        return List.copyOf(history);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The new entry has a fresh id, the restored selection and model, zero token usage and a
     * {@code Mnemo-Restores} trailer naming {@code id}.
     */
    @Override
    public synchronized ConsolidationRecord rollback(String id) {
        Objects.requireNonNull(id, "id");
        List<HistoryCommit> chain = keptChain();
        HistoryCommit target = chain.get(indexOf(chain, id));
        ConsolidationRecord restored = recordOf(target).orElseThrow();
        try {
            working.restore(repository.files(target.id()), repository::blob);
            Instant at = clock.instant();
            ConsolidationRecord entry = new ConsolidationRecord(ConsolidationRecord.newId(at), at,
                    restored.selected(), restored.model(), TokenUsage.ZERO);
            ObjectId parent = repository.head().orElseThrow();
            ObjectId commit = repository.commit(target.tree(), List.of(parent),
                    CommitMessages.consolidation(entry, Optional.of(id)), entry.at());
            repository.moveHead(commit, parent);
            OwnerOnlyFiles.restrictTree(root); // the restored files and the new objects keep the folder's mode
            LOG.info("Restored the memory files of consolidation {} as history entry {} in {}", id, entry.id(), root);
            return restored;
        } catch (IOException | RuntimeException e) {
            throw failure("roll back to consolidation " + id + " in", root, e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>HEAD moves back to the commit before entry {@code id} and every object no longer reachable
     * is pruned; when that commit is the baseline rather than an entry, the history restarts as one
     * baseline of what is left (the notes under {@code extensions/}).
     */
    @Override
    public synchronized Optional<ConsolidationRecord> dropHistoryFrom(String id) {
        Objects.requireNonNull(id, "id");
        List<HistoryCommit> chain = keptChain();
        int index = indexOf(chain, id);
        try {
            // 1. The entry (found above), and the commit before it.
            HistoryCommit before = index + 1 < chain.size() ? chain.get(index + 1) : null;
            Optional<ConsolidationRecord> remaining = before == null ? Optional.empty()
                    : CommitMessages.parse(before.message());
            // 2. The generated files as the newest remaining entry left them, or none; notes stay.
            //    A diff file left by a failed consolidation quotes the dropped text: it goes too.
            Files.deleteIfExists(root.resolve(WorkingFiles.DIFF_FILE));
            working.restore(remaining.isPresent() ? repository.files(before.id()) : FileListing.EMPTY,
                    repository::blob, GitMemoryWorkspace::isNote);
            // 3. The history without the dropped entries, and no object of theirs left behind.
            if (remaining.isPresent()) {
                repository.moveHead(before.id(), null);
                repository.pruneUnreachable();
            } else {
                resetBaseline("History dropped from consolidation " + id + " on; nothing older was kept.");
            }
            OwnerOnlyFiles.restrictTree(root);
            LOG.info("Dropped {} history entr{} from consolidation {} on in {}; files restored to {}", index + 1,
                    index == 0 ? "y" : "ies", id, root, remaining.map(ConsolidationRecord::id).orElse("none"));
            return remaining;
        } catch (IOException | RuntimeException e) {
            throw failure("drop the history from consolidation " + id + " in", gitDir, e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Entry {@code id}'s tree against the nearest older entry's. The oldest kept entry is diffed
     * against an empty tree, not against the baseline commit under it (the folder as it was when
     * the history began or was trimmed), so a diff never depends on how much history is kept.
     */
    @Override
    public synchronized String consolidationDiff(String id) {
        Objects.requireNonNull(id, "id");
        List<HistoryCommit> chain = keptChain();
        int index = indexOf(chain, id);
        try {
            FileListing before = FileListing.EMPTY;
            for (HistoryCommit older : chain.subList(index + 1, chain.size())) {
                if (recordOf(older).isPresent()) {
                    before = repository.listFiles(older.id());
                    break;
                }
            }
            return ListingDiff.compare(before, this::blob, repository.listFiles(chain.get(index).id()), this::blob)
                    .unifiedDiff();
        } catch (IOException | RuntimeException e) {
            throw failure("diff consolidation " + id + " in", gitDir, e);
        }
    }

    /** The first-parent chain from HEAD, newest first; empty when the workspace has no history folder yet. */
    private List<HistoryCommit> keptChain() {
        if (!Files.isDirectory(gitDir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        prepare();
        try {
            return repository.chain();
        } catch (IOException | RuntimeException e) {
            throw failure("read the history in", gitDir, e);
        }
    }

    /** Where in {@code chain} the kept consolidation {@code id} is. */
    private int indexOf(List<HistoryCommit> chain, String id) {
        for (int i = 0; i < chain.size(); i++) {
            if (recordOf(chain.get(i)).filter(entry -> entry.id().equals(id)).isPresent()) {
                return i;
            }
        }
        throw new IllegalArgumentException("no kept consolidation has id '" + id + "' in " + gitDir);
    }

    /** The consolidation a commit records; empty for a baseline. */
    private Optional<ConsolidationRecord> recordOf(HistoryCommit commit) {
        try {
            return CommitMessages.parse(commit.message());
        } catch (RuntimeException e) { // a malformed trailer block
            throw failure("read the history in", gitDir, e);
        }
    }

    /** The user's own notes and other extension resources: kept when generated files are restored. */
    private static boolean isNote(String path) {
        return path.startsWith("extensions/");
    }

    @Override
    public synchronized void squashHistory() {
        try {
            Files.createDirectories(root);
            resetBaseline("Squashed the memory history to the current files.");
            LOG.info("Squashed the memory history of {} to one baseline; no unreachable object is left", root);
        } catch (IOException | RuntimeException e) {
            throw failure("squash the history in", gitDir, e);
        }
    }

    @Override
    public synchronized void clear() {
        closeRepository();
        try {
            working.deleteAllUnderRoot();
            Files.createDirectories(root);
            LOG.info("Cleared every memory file and the history under {}", root);
        } catch (IOException | RuntimeException e) {
            throw failure("clear", root, e);
        }
    }

    @Override
    public synchronized void close() {
        closeRepository();
    }

    /**
     * Drops the oldest consolidations beyond {@code retention}: a new parentless baseline holds
     * the files as they were before the oldest kept one, the kept commits are replayed on top with
     * their trees, messages and times, and every object no longer reachable is pruned.
     */
    private void trimHistory(int retention) throws IOException {
        List<HistoryCommit> chain = repository.chain();
        int kept = 0;
        int cut = -1;
        for (int i = 0; i < chain.size(); i++) {
            if (CommitMessages.parse(chain.get(i).message()).isPresent() && ++kept == retention) {
                cut = i + 1;
                break;
            }
        }
        if (cut < 0 || cut >= chain.size() - 1) {
            return;
        }
        HistoryCommit base = chain.get(cut);
        ObjectId tip = repository.commit(base.tree(), List.of(),
                CommitMessages.baseline("History trimmed to the newest " + retention + " consolidations."), base.when());
        for (int i = cut - 1; i >= 0; i--) {
            HistoryCommit commit = chain.get(i);
            tip = repository.commit(commit.tree(), List.of(tip), commit.message(), commit.when());
        }
        repository.moveHead(tip, null);
        repository.pruneUnreachable();
        LOG.info("Trimmed the memory history of {} to {} consolidations and pruned unreachable objects", root, retention);
    }

    /** Replaces the history by a fresh repository whose single parentless commit holds the current files. */
    private void resetBaseline(String reason) throws IOException {
        closeRepository();
        WorkingFiles.deleteRecursively(gitDir);
        repository = BaselineRepository.create(gitDir);
        repository.useWallClock(wallClock);
        ObjectId tree = repository.writeTree(working, working.scan());
        repository.moveHead(repository.commit(tree, List.of(), CommitMessages.baseline(reason), clock.instant()), null);
        OwnerOnlyFiles.restrictTree(root);
        LOG.debug("New memory baseline in {}: {}", gitDir, reason);
    }

    /** For tests: folder times are compared with {@code clock} instead of the system clock. */
    synchronized void useWallClock(Clock clock) {
        wallClock = Objects.requireNonNull(clock, "clock");
        working.useWallClock(clock);
        if (repository != null) {
            repository.useWallClock(clock);
        }
    }

    private BaselineRepository openOrNull() {
        try {
            BaselineRepository opened = BaselineRepository.open(gitDir);
            opened.useWallClock(wallClock);
            return opened;
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot open the memory history at {}: {}", gitDir, e.toString());
            return null;
        }
    }

    private void closeRepository() {
        if (repository != null) {
            repository.close();
            repository = null;
        }
    }

    private static MemoryWorkspaceException failure(String action, Path path, Exception cause) {
        if (cause instanceof MemoryWorkspaceException workspaceFailure) {
            return workspaceFailure;
        }
        return new MemoryWorkspaceException("cannot " + action + " " + path + ": " + cause.getMessage(), cause);
    }
}
