package dev.mnemo.internal.consolidate;

import dev.mnemo.Phase2FailureReason;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.SelectionPolicy;
import dev.mnemo.internal.events.BackgroundOperations;
import dev.mnemo.internal.read.AdHocNoteFiles;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgentRequest;
import dev.mnemo.spi.ConsolidationAgentResult;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryOperation;
import dev.mnemo.spi.Phase2SelectionParams;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.WorkspaceDiff;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static dev.mnemo.internal.consolidate.Phase2Runner.HEARTBEAT;
import static dev.mnemo.internal.consolidate.Phase2Runner.JOB_LEASE;
import static dev.mnemo.internal.consolidate.Phase2Runner.RETRY_DELAY;

/**
 * One claimed Phase 2 attempt: the numbered steps after the global lock (2 to 11 of
 * {@link Phase2Runner}), from preparing the workspace through the agent to marking the exact
 * selection. It holds the claim's token and what the attempt has spent so far, so each way out
 * (success, a failure with Codex's reason code, lost ownership) reports the same inputs and usage.
 * Made once per claim and used once; its log lines keep {@link Phase2Runner}'s logger.
 */
final class Phase2Attempt {

    private static final Logger LOG = LoggerFactory.getLogger(Phase2Runner.class);
    private static final Pattern EXTENSION_DESCRIPTION =
            Pattern.compile("extensions/[^/]+/instructions\\.md");
    private static final String LOST_OWNERSHIP = "lost ownership of the job";

    private final Phase2Runner.Dependencies deps;
    private final Executor workers;
    private final Path root;
    private final Forgetting forgetting;
    private final String token;
    private final long claimedWatermark;
    private int inputs;
    private TokenUsage usage = TokenUsage.ZERO;
    private final BackgroundOperations operations;
    private final BackgroundOperations.Start started;
    /** Set once the attempt starts writing the folder (step 4); cleared when it found nothing changed. */
    private boolean changing;
    /** The files changed against the baseline, as last counted. */
    private int filesChanged;
    /** The paths the synced inputs changed against the baseline (step 5). */
    private Set<String> syncedChanges = Set.of();
    /** The folder as the agent got it, to count its edits; null when it could not be read. */
    private FolderFingerprint beforeAgent;

    Phase2Attempt(Phase2Runner.Dependencies deps, Executor workers, Forgetting forgetting, JobClaim claim,
            BackgroundOperations operations) {
        this.deps = deps;
        this.workers = workers;
        this.root = deps.workspace().root();
        this.forgetting = forgetting;
        this.token = claim.token();
        this.claimedWatermark = claim.inputWatermark();
        this.operations = operations;
        this.started = operations.start();
    }

    /** Runs steps 2 to 11; never throws for store, workspace or agent failures. */
    Phase2Report run() {
        // 2. Prepare the workspace: root, no stale diff file, a usable baseline.
        try {
            WorkspaceDiffFile.delete(root);
            deps.workspace().prepare();
        } catch (Exception e) {
            return fail(Phase2FailureReason.FAILED_PREPARE_WORKSPACE, e);
        }
        // 2b. A forget that could not drop its history entries itself (a consolidation was
        //     running) is completed first, so the agent starts from a state without its text.
        try {
            BackgroundOperations.Start start = operations.start();
            Set<String> forgotten = forgetting.dropPending(Set.of());
            if (!forgotten.isEmpty()) {
                operations.forgetsCompleted(forgotten, start, Optional.empty());
            }
        } catch (RuntimeException e) {
            return fail(Phase2FailureReason.FAILED_PREPARE_WORKSPACE, e);
        }
        // 3. Select the inputs (one read transaction, sorted by thread id).
        List<Stage1Output> selection;
        try {
            selection = selectInputs();
        } catch (RuntimeException e) {
            return fail(Phase2FailureReason.FAILED_LOAD_STAGE1_OUTPUTS, e);
        }
        inputs = selection.size();
        deps.listener().phase2InputsSelected(selection.stream().map(Stage1Output::threadId).toList());
        if (selection.isEmpty() && storedMemoriesAllIneligible()) {
            return succeed(Phase2Outcome.NO_WORKSPACE_CHANGES, claimedWatermark, selection);
        }
        long watermark = Math.max(claimedWatermark, selection.stream()
                .mapToLong(o -> o.sourceUpdatedAt().getEpochSecond()).max().orElse(0));
        // 4. Sync raw_memories.md and rollout_summaries/, prune old extension resources.
        changing = true;
        try {
            WorkspaceSync.sync(root, selection);
            ExtensionResources.pruneOld(root, deps.clock().instant());
        } catch (Exception e) {
            return fail(Phase2FailureReason.FAILED_SYNC_WORKSPACE_INPUTS, e);
        }
        // 5. Diff against the baseline; nothing changed and valid artifacts: done without the agent.
        WorkspaceDiff diff;
        try {
            diff = deps.workspace().diff();
        } catch (RuntimeException e) {
            return fail(Phase2FailureReason.FAILED_WORKSPACE_STATUS, e);
        }
        filesChanged = diff.changes().size();
        syncedChanges = diff.changes().stream().map(WorkspaceDiff.Change::path).collect(Collectors.toSet());
        boolean artifactsValid = Artifacts.valid(root);
        if (diff.isEmpty() && artifactsValid) {
            return succeed(Phase2Outcome.NO_WORKSPACE_CHANGES, watermark, selection);
        }
        if (selection.isEmpty() && !artifactsValid && !hasExtensionContent(root)) {
            LOG.info("memory phase-2: no memories and no notes to consolidate yet");
            return succeed(Phase2Outcome.NO_WORKSPACE_CHANGES, watermark, selection);
        }
        // 6. The diff file the agent reads first, and the notes it is shown.
        List<String> notesShown;
        try {
            WorkspaceDiffFile.write(root, diff);
            notesShown = AdHocNoteFiles.names(root);
        } catch (Exception e) {
            return fail(Phase2FailureReason.FAILED_WORKSPACE_DIFF_FILE, e);
        }
        // 7. The agent, awaited, with the lease kept alive.
        beforeAgent = fingerprint();
        step("agent_spawned");
        ConsolidationAgentResult result;
        try (Heartbeat heartbeat = Heartbeat.start(deps.store(), token, JOB_LEASE, HEARTBEAT, deps.clock(),
                workers)) {
            result = AgentCall.run(deps.agent(), new ConsolidationAgentRequest(root, ConsolidationPrompt.render(root,
                    !artifactsValid), deps.model(), Duration.ofMinutes(deps.config().consolidationTimeoutMinutes())),
                    workers);
        } catch (RuntimeException e) {
            return fail(Phase2FailureReason.FAILED_SPAWN_AGENT, e);
        }
        usage = result.usage();
        // 8. Still ours? A worker that lost the lease writes nothing more.
        boolean owned;
        try {
            owned = deps.store().heartbeatPhase2Job(token, JOB_LEASE, deps.clock().instant());
        } catch (RuntimeException e) {
            return fail(Phase2FailureReason.FAILED_CONFIRM_OWNERSHIP, e);
        }
        if (!owned) {
            LOG.warn("memory phase-2 lost ownership of the consolidation job; leaving the workspace for the next run");
            return finish(Phase2Report.failed(Phase2FailureReason.FAILED_CONFIRM_OWNERSHIP, LOST_OWNERSHIP, inputs,
                    usage));
        }
        // 9. No links out of the folder, whatever the agent did; then the artifacts must be valid.
        List<String> links;
        try {
            links = Artifacts.removeSymlinks(root);
        } catch (Exception e) {
            return fail(Phase2FailureReason.FAILED_INVALID_ARTIFACTS, e);
        }
        if (!result.completed()) {
            return fail(Phase2FailureReason.FAILED_AGENT, result.error().orElse("the consolidation agent did not complete"));
        }
        if (!links.isEmpty()) {
            return fail(Phase2FailureReason.FAILED_INVALID_ARTIFACTS, "the agent created symbolic links, removed: " + links);
        }
        if (!Artifacts.valid(root)) {
            return fail(Phase2FailureReason.FAILED_INVALID_ARTIFACTS, Artifacts.problem(root));
        }
        // 10. The new baseline and history entry, with the notes it folded in (no longer pending).
        try {
            WorkspaceDiffFile.delete(root);
            AdHocNoteFiles.writeFolded(root, notesShown);
            countFilesChanged();
            Instant finishedAt = deps.wallClock().instant();
            recordConsolidated(selection, finishedAt); // before the files: a forget must never miss them
            deps.workspace().commit(new ConsolidationRecord(ConsolidationRecord.newId(finishedAt),
                    finishedAt, snapshots(selection), deps.model(), usage),
                    deps.config().historyRetention());
        } catch (Exception e) {
            return fail(Phase2FailureReason.FAILED_WORKSPACE_COMMIT, e);
        }
        // 10b. An input forgotten while the agent ran: the entry just made holds its text, so it
        //      is dropped with the others that used it, and the next run is due at once.
        Set<String> forgotten;
        try {
            forgotten = forgetting.dropPending(Set.of());
        } catch (RuntimeException e) {
            return fail(Phase2FailureReason.FAILED_WORKSPACE_COMMIT, e);
        }
        if (!forgotten.isEmpty()) {
            forgetting.releaseDueNow(token, forgotten);
            LOG.info("memory phase-2 result dropped: thread(s) {} were forgotten while it ran", forgotten);
            return finish(Phase2Report.failed(Phase2FailureReason.FORGET_PENDING,
                    "thread(s) " + forgotten + " were forgotten while the consolidation ran", inputs, usage));
        }
        // 11. Done: watermark and the exact selection.
        return succeed(Phase2Outcome.SUCCEEDED, watermark, selection);
    }

    /**
     * With no input selected while memories are stored, each of them was unused and not
     * refreshed for longer than {@code max_unused_days} (easy after replaying old sessions):
     * running the agent would erase the memory folder, so it is kept and that is said. (A
     * memory forgotten on purpose, by deleting or polluting its thread, is no longer stored.)
     */
    private boolean storedMemoriesAllIneligible() {
        if (deps.store().listStage1OutputsForGlobal(1).isEmpty()) {
            return false;
        }
        LOG.warn("memory phase-2: no stored memory is eligible (each was unused and not refreshed for more than "
                + "max_unused_days = {} days as of {}); keeping the memory folder as it is",
                deps.config().maxUnusedDays(), deps.clock().instant());
        return true;
    }

    /**
     * The inputs under the configured {@code selection_policy}: Codex's ranking as Codex asks for
     * it, or the fair rule through the policy-aware selection.
     */
    private List<Stage1Output> selectInputs() {
        if (deps.config().selectionPolicy() == SelectionPolicy.CODEX) {
            return deps.store().phase2InputSelection(deps.config().maxRawMemoriesForConsolidation(),
                    deps.config().maxUnusedDays(), deps.clock().instant());
        }
        Phase2SelectionParams params = Phase2SelectionParams.of(deps.config());
        List<Stage1Output> selection = deps.store().phase2InputSelection(params, deps.clock().instant());
        LOG.info("memory phase-2 selected {} input(s) by the fair policy (half-life {} days, {} place(s) kept for "
                + "memories never consolidated)", selection.size(), params.halfLifeDays(), params.reservedForNew());
        return selection;
    }

    private Phase2Report succeed(Phase2Outcome outcome, long watermark, List<Stage1Output> selection) {
        if (outcome == Phase2Outcome.NO_WORKSPACE_CHANGES) {
            changing = false; // nothing was changed, whatever becomes of the bookkeeping
        }
        boolean owned;
        try {
            if (outcome != Phase2Outcome.SUCCEEDED) {
                recordConsolidated(selection, deps.wallClock().instant()); // the kept files hold them
            }
            owned = deps.store().markPhase2Succeeded(token, watermark, snapshots(selection),
                    deps.clock().instant());
        } catch (RuntimeException e) {
            // The work is done (and committed) but not recorded: fail the job if the store lets us,
            // else it stays running until its lease ends and the next run redoes the bookkeeping.
            return fail(Phase2FailureReason.FAILED_RECORD_RESULT, e);
        }
        if (!owned) {
            return finish(Phase2Report.failed(Phase2FailureReason.FAILED_CONFIRM_OWNERSHIP, LOST_OWNERSHIP, inputs,
                    usage));
        }
        LOG.info("memory phase-2 {}: {} input(s), {} tokens", outcome == Phase2Outcome.SUCCEEDED ? "succeeded"
                : "succeeded_no_workspace_changes", inputs, usage.totalTokens());
        return finish(new Phase2Report(outcome, inputs, usage, Optional.empty()));
    }

    private Phase2Report fail(Phase2FailureReason reason, Exception cause) {
        LOG.warn("memory phase-2 {}", reason.code(), cause);
        return fail(reason, String.valueOf(cause.getMessage()));
    }

    /** Records the failure with a retry backoff when the store allows it; a store error leaves the job to its lease. */
    private Phase2Report fail(Phase2FailureReason reason, String detail) {
        Phase2Report report = Phase2Report.failed(reason, detail, inputs, usage);
        String error = report.failure().orElseThrow();
        try {
            boolean marked = deps.store().markPhase2Failed(token, error, RETRY_DELAY, deps.clock().instant())
                    || deps.store().markPhase2FailedIfUnowned(token, error, RETRY_DELAY, deps.clock().instant());
            if (!marked) {
                LOG.warn("memory phase-2 failure could not be recorded: the job is no longer ours");
            }
        } catch (RuntimeException e) {
            LOG.warn("memory phase-2 failure could not be recorded; the job is left to its lease", e);
        }
        LOG.info("memory phase-2 failed: {}", error);
        return finish(report);
    }

    /**
     * Whether the folder holds anything the agent could write memory from besides stage-1
     * outputs: an ad-hoc note or another extension resource (any file under {@code extensions/}
     * other than an extension's {@code instructions.md}, which startup seeds). When the folder
     * cannot be listed the answer is yes: the agent then runs, as it always did.
     */
    private static boolean hasExtensionContent(Path root) {
        Path extensions = root.resolve("extensions");
        if (!Files.isDirectory(extensions, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(extensions)) {
            return files.filter(file -> Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
                    .anyMatch(file -> !EXTENSION_DESCRIPTION.matcher(root.relativize(file).toString()).matches());
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("memory phase-2: cannot list {} ({}); assuming it holds notes", extensions, e.toString());
            return true;
        }
    }

    /**
     * Tells the store which threads the files now hold memories of, with the consolidation's time;
     * a store that keeps no such record leaves forgets to the kept history alone.
     */
    private void recordConsolidated(List<Stage1Output> selection, Instant at) {
        if (selection.isEmpty()) {
            return;
        }
        try {
            deps.store().recordConsolidatedThreads(selection.stream().map(Stage1Output::threadId).toList(), at);
        } catch (UnsupportedOperationException e) {
            LOG.debug("{}", e.getMessage());
        }
    }

    private static List<SelectedInput> snapshots(List<Stage1Output> selection) {
        return selection.stream().map(Stage1Output::snapshot).toList();
    }

    private void step(String name) {
        deps.listener().phase2Step(name);
    }

    /**
     * What the consolidation changed, against the baseline, once the agent is done: the paths the
     * synced inputs changed and those the agent changed, together. Counted from the folder alone:
     * asking the workspace for its diff here could refresh it (a fleet workspace takes in notes added
     * meanwhile), and the commit would then take notes this consolidation never saw. A folder that
     * cannot be read keeps the count of the synced inputs' changes.
     */
    private void countFilesChanged() {
        FolderFingerprint after = fingerprint();
        if (beforeAgent == null || after == null) {
            return;
        }
        Set<String> changed = new HashSet<>(syncedChanges);
        changed.addAll(beforeAgent.changedIn(after));
        changed.remove(WorkspaceDiffFile.FILENAME);
        filesChanged = changed.size();
    }

    private FolderFingerprint fingerprint() {
        try {
            return FolderFingerprint.of(root);
        } catch (IOException | RuntimeException e) {
            LOG.debug("memory phase-2: cannot read the folder to count the files changed ({})", e.toString());
            return null;
        }
    }

    /**
     * Tells the listener how the attempt ended, and the operation it was: an {@code update_memory}
     * counting the files changed when it succeeded, or when it failed after it began writing the
     * folder (with the failure's reason code as its error type). An attempt that found nothing to
     * change is no operation.
     */
    private Phase2Report finish(Phase2Report report) {
        boolean succeeded = report.outcome() == Phase2Outcome.SUCCEEDED;
        boolean failedChanging = report.outcome() == Phase2Outcome.FAILED && changing;
        if (succeeded || failedChanging) {
            Optional<String> error = failedChanging ? Optional.of(report.failureReason()
                    .map(Phase2FailureReason::code).orElse(Phase2Outcome.FAILED.name().toLowerCase(Locale.ROOT)))
                    : Optional.empty();
            operations.operation(MemoryOperation.Type.UPDATE, SOURCE, Optional.empty(), filesChanged, List.of(),
                    started, error, BackgroundOperations.currentRun());
        }
        return Phase2Runner.finish(deps.listener(), report);
    }

    /** The source of a consolidation's operation. */
    static final String SOURCE = "consolidation";
}
