package dev.mnemo.internal.consolidate;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase2FailureReason;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.internal.read.AdHocNoteFiles;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentRequest;
import dev.mnemo.spi.ConsolidationAgentResult;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.Phase2ClaimPolicy;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.WorkspaceDiff;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2: under the global lock, sync the selected memories into the workspace, diff it against
 * the baseline, let the consolidation agent rewrite the artifacts, validate, commit, and mark the
 * exact selection (Codex's {@code phase2::run}, with the agent awaited rather than detached).
 * Every failure ends the job with Codex's reason code and a one-hour backoff.
 */
public final class Phase2Runner {

    private static final Logger LOG = LoggerFactory.getLogger(Phase2Runner.class);

    /** Codex {@code stage_two::JOB_LEASE_SECONDS} (defined once, in {@link Phase2ClaimPolicy}). */
    public static final Duration JOB_LEASE = Phase2ClaimPolicy.JOB_LEASE;
    /** Codex {@code stage_two::JOB_RETRY_DELAY_SECONDS} (defined once, in {@link Phase2ClaimPolicy}). */
    public static final Duration RETRY_DELAY = Phase2ClaimPolicy.RETRY_DELAY;
    /** Codex {@code stage_two::JOB_HEARTBEAT_SECONDS} (defined once, in {@link Phase2ClaimPolicy}). */
    public static final Duration HEARTBEAT = Phase2ClaimPolicy.HEARTBEAT;

    /**
     * What Phase 2 works with.
     *
     * @param model the consolidation model name recorded in history (may be empty)
     * @param wallClock times and names the history entry (the pipeline {@code clock} may be fixed for a replay)
     */
    public record Dependencies(MemoryStore store, MemoryWorkspace workspace, ConsolidationAgent agent,
            MemoriesConfig config, Clock clock, Clock wallClock, String workerId, String model,
            MemoryEventListener listener) {
        public Dependencies {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(workspace, "workspace");
            Objects.requireNonNull(agent, "agent");
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(wallClock, "wallClock");
            Objects.requireNonNull(workerId, "workerId");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(listener, "listener");
        }
    }

    private static final Pattern EXTENSION_DESCRIPTION =
            Pattern.compile("extensions/[^/]+/instructions\\.md");
    private static final String LOST_OWNERSHIP = "lost ownership of the job";

    private final Dependencies deps;
    private final Executor workers;
    private final Path root;
    private final Forgetting forgetting;

    /**
     * @param workers runs the lease heartbeat and the agent's watchdog (the engine's executor); the
     *     agent itself runs on the thread that calls {@link #run()}
     */
    public Phase2Runner(Dependencies deps, Executor workers) {
        this(deps, workers, new Forgetting(deps.store(), deps.workspace(), deps.clock(), deps::workerId));
    }

    /**
     * @param forgetting completes pending forgets; the engine passes the one its own forgets use, so
     *     the two never complete the same forget at once
     */
    public Phase2Runner(Dependencies deps, Executor workers, Forgetting forgetting) {
        this.deps = Objects.requireNonNull(deps, "deps");
        this.workers = Objects.requireNonNull(workers, "workers");
        this.root = deps.workspace().root();
        this.forgetting = Objects.requireNonNull(forgetting, "forgetting");
    }

    /** Runs one consolidation attempt; never throws for store, workspace or agent failures. */
    public Phase2Report run() {
        return run(false);
    }

    /**
     * Runs one consolidation attempt now: past the success cooldown and the retry backoff, never
     * past a live lease ("refresh now"). Never throws for store, workspace or agent failures.
     */
    public Phase2Report runNow() {
        return run(true);
    }

    private Phase2Report run(boolean now) {
        // 0. A pending forget goes first, past any backoff or cooldown (its own run failed, or its
        //    process died holding the lock): the files lose the forgotten text before anything else.
        completePendingForgets();
        Phase2Report report = claimAndRun(now);
        // 12. A forget that landed after this run's last look (its own claim found the lock held):
        //     completed now that the lock is free, whatever the outcome, so it never waits for the next run.
        completePendingForgets();
        return report;
    }

    /** Completes every pending forget now if the lock can be had; never throws. */
    private void completePendingForgets() {
        try {
            if (!forgetting.pendingOrEmpty().isEmpty()) {
                Forgetting.Outcome outcome = forgetting.completePending(Set.of());
                LOG.info("memory phase-2: pending forgets {}", outcome);
            }
        } catch (RuntimeException e) {
            LOG.warn("memory phase-2: completing the pending forgets failed; they stay pending", e);
        }
    }

    private Phase2Report claimAndRun(boolean now) {
        // 1. The global lock (past the cooldown when asked to run now).
        JobClaim claim;
        try {
            claim = now ? deps.store().tryClaimPhase2JobNow(deps.workerId(), JOB_LEASE, deps.clock().instant())
                    : deps.store().tryClaimPhase2Job(deps.workerId(), JOB_LEASE, deps.clock().instant());
        } catch (RuntimeException e) {
            LOG.warn("memory phase-2 claim failed", e);
            return finish(Phase2Report.failed(Phase2FailureReason.FAILED_CLAIM, String.valueOf(e.getMessage()), 0,
                    TokenUsage.ZERO));
        }
        if (!claim.isClaimed()) {
            Phase2Outcome skipped = switch (claim.outcome()) {
                case SKIPPED_COOLDOWN -> Phase2Outcome.SKIPPED_COOLDOWN;
                case SKIPPED_RETRY_UNAVAILABLE, SKIPPED_RETRY_BACKOFF -> Phase2Outcome.SKIPPED_RETRY_BACKOFF;
                default -> Phase2Outcome.SKIPPED_RUNNING;
            };
            LOG.debug("memory phase-2 not claimed: {}", claim.outcome());
            return finish(new Phase2Report(skipped, 0, TokenUsage.ZERO, Optional.empty()));
        }
        step("claimed");
        return new Attempt(claim).run();
    }

    /** One claimed attempt: the numbered steps after the lock. */
    private final class Attempt {
        private final String token;
        private final long claimedWatermark;
        private int inputs;
        private TokenUsage usage = TokenUsage.ZERO;

        Attempt(JobClaim claim) {
            this.token = claim.token();
            this.claimedWatermark = claim.inputWatermark();
        }

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
                forgetting.dropPending(Set.of());
            } catch (RuntimeException e) {
                return fail(Phase2FailureReason.FAILED_PREPARE_WORKSPACE, e);
            }
            // 3. Select the inputs (one read transaction, sorted by thread id).
            List<Stage1Output> selection;
            try {
                selection = deps.store().phase2InputSelection(deps.config().maxRawMemoriesForConsolidation(),
                        deps.config().maxUnusedDays(), deps.clock().instant());
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

        private Phase2Report succeed(Phase2Outcome outcome, long watermark, List<Stage1Output> selection) {
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

    private Phase2Report finish(Phase2Report report) {
        deps.listener().phase2Finished(report.outcome(), report.failure());
        return report;
    }
}
