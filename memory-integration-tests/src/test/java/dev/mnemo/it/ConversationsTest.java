package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.ConversationBusyException;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.StartupReport;
import dev.mnemo.StartupTask;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a server that runs for months needs of the conversations it serves (issue 27): one exchange
 * at a time per conversation, idle conversations closed and transparently continued, a bound on
 * what is kept, and a burst of new conversations costing one queued startup run.
 */
class ConversationsTest {

    @TempDir
    Path home;

    private final MutableClock clock = new MutableClock(Pipeline.T0);

    private MemoryEngine.Builder engine() {
        return MemoryEngine.builder().home(home).model(new ScriptedModel()).clock(clock)
                .closeTimeout(Duration.ofMillis(200));
    }

    @Test
    void aSecondTurnOnABusyConversation_isRefusedBeforeAnythingIsRecorded() throws Exception {
        try (MemoryEngine memory = engine().build()) {
            MemorySession session = memory.conversation("chat-1");
            MemorySession.Turn first = session.beginTurn();
            session.userMessage("first question");

            assertThatThrownBy(session::beginTurn).isInstanceOf(ConversationBusyException.class)
                    .hasMessageContaining("chat-1").hasMessageContaining("refused");

            session.assistantMessage("first answer");
            first.close();
            first.close(); // harmless
            try (MemorySession.Turn second = session.beginTurn()) {
                session.userMessage("second question");
            }
            String rollout = Files.readString(memory.threads().get("chat-1").orElseThrow().rolloutPath());
            assertThat(rollout.indexOf("first question")).isLessThan(rollout.indexOf("first answer"));
            assertThat(rollout.indexOf("first answer")).isLessThan(rollout.indexOf("second question"));
        }
    }

    @Test
    void anIdleConversation_isClosed_andItsNextRequestContinuesTheSameRollout() throws Exception {
        try (MemoryEngine memory = engine().conversationIdleTimeout(Duration.ofMinutes(30)).build()) {
            MemorySession before = memory.conversation("chat-1");
            before.userMessage("before the pause");
            Path rollout = memory.threads().get("chat-1").orElseThrow().rolloutPath();
            clock.advance(Duration.ofMinutes(31));

            memory.conversation("someone-else"); // any caller sweeps; the schedule does too

            assertThatThrownBy(() -> before.userMessage("late")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            MemorySession after = memory.conversation("chat-1");
            assertThat(after).isNotSameAs(before);
            after.userMessage("after the pause");
            assertThat(memory.threads().get("chat-1").orElseThrow().rolloutPath()).isEqualTo(rollout);
            assertThat(Files.readString(rollout)).contains("before the pause", "after the pause");
        }
    }

    @Test
    void aConversationInATurn_isNeverEvictedAsIdle() {
        try (MemoryEngine memory = engine().conversationIdleTimeout(Duration.ofMinutes(30)).build()) {
            MemorySession session = memory.conversation("slow-request");
            try (MemorySession.Turn turn = session.beginTurn()) {
                clock.advance(Duration.ofHours(2)); // a very slow model
                memory.admin().startPipeline(); // sweeps

                session.assistantMessage("the answer, at last");
            }
            assertThat(memory.conversation("slow-request")).isSameAs(session);
        }
    }

    @Test
    void closeConversation_endsItsRecordingNow_andSaysWhetherOneWasOpen() {
        try (MemoryEngine memory = engine().build()) {
            MemorySession session = memory.conversation("chat-1");

            assertThat(memory.closeConversation("chat-1")).isTrue();
            assertThat(memory.closeConversation("chat-1")).isFalse();
            assertThat(memory.closeConversation("never-opened")).isFalse();
            assertThatThrownBy(() -> session.userMessage("late")).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void beyondMaxOpenConversations_theLeastRecentlyUsedAreClosed() {
        try (MemoryEngine memory = engine().maxOpenConversations(10).build()) {
            MemorySession oldest = memory.conversation("c-0");
            for (int i = 1; i <= 10; i++) {
                clock.advance(Duration.ofSeconds(1));
                memory.conversation("c-" + i);
            }

            assertThatThrownBy(() -> oldest.userMessage("late")).isInstanceOf(IllegalStateException.class);
            MemorySession newest = memory.conversation("c-10");
            newest.userMessage("still open");
        }
    }

    /**
     * 100,000 conversations, each opened and used once, as a server sees over weeks: what the engine
     * keeps stays bounded by {@code maxOpenConversations}, and none is kept once all are idle.
     */
    @Test
    void aHundredThousandConversations_keepRetainedHeapBounded() {
        MemoriesConfig quiet = MemoriesConfig.builder().generateMemories(false).build(); // no startup runs
        int count = 100_000;
        try (MemoryEngine memory = engine().config(quiet).maxOpenConversations(1_000).build()) {
            memory.conversation("warm-up").userMessage("hello");
            long before = usedHeapAfterGc();
            for (int i = 0; i < count; i++) {
                if (i % 1_000 == 0) {
                    clock.advance(Duration.ofSeconds(1));
                }
                memory.conversation("conversation-" + i).userMessage("question " + i);
            }
            long after = usedHeapAfterGc();
            long retained = after - before;
            System.out.printf("retained heap after %,d conversations (maxOpenConversations 1,000): %,d bytes%n", count,
                    retained);

            assertThat(retained).as("retained bytes").isLessThan(16L * 1024 * 1024);
            clock.advance(Duration.ofHours(1));
            memory.admin().startPipeline(); // sweeps the idle ones
            assertThat(usedHeapAfterGc() - before).as("retained bytes once all are idle")
                    .isLessThan(8L * 1024 * 1024);
        }
    }

    @Test
    void aBurstOfNewConversations_queuesOneStartupRun_thatEveryOneOfThemShares() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        try (MemoryEngine memory = engine().executor(executor).build()) {
            List<StartupTask> tasks = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                tasks.add(memory.conversation("burst-" + i).startupTask());
            }

            assertThat(executor.queued).hasSize(1);
            executor.runAll();
            StartupReport report = tasks.get(0).completion().get(30, TimeUnit.SECONDS);
            for (StartupTask task : tasks) {
                assertThat(task.completion().get(30, TimeUnit.SECONDS)).isSameAs(report);
            }

            memory.conversation("after-the-run");
            assertThat(executor.queued).as("a new run once the last one started").hasSize(1);
            executor.runAll();
        }
    }

    @Test
    void cancellingOneSharedStartupTask_leavesTheRunToTheOthers() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        try (MemoryEngine memory = engine().executor(executor).build()) {
            StartupTask first = memory.conversation("a").startupTask();
            StartupTask second = memory.conversation("b").startupTask();

            assertThat(first.cancel()).isTrue();
            executor.runAll();

            assertThat(first.completion()).isCompletedExceptionally();
            assertThat(second.completion().get(30, TimeUnit.SECONDS).skipped()).isEmpty();
        }
    }

    /** Issue 36: opening moved out of the map's lock; the same id is still opened exactly once. */
    @Test
    void concurrentOpensOfOneConversation_openItOnce() throws Exception {
        MemoriesConfig quiet = MemoriesConfig.builder().generateMemories(false).build();
        try (MemoryEngine memory = engine().config(quiet).build()) {
            int callers = 16;
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(callers);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(callers);
            try {
                List<java.util.concurrent.Future<MemorySession>> opened = new ArrayList<>();
                for (int i = 0; i < callers; i++) {
                    opened.add(pool.submit(() -> {
                        start.await();
                        return memory.conversation("same-chat");
                    }));
                }
                MemorySession first = opened.get(0).get(30, TimeUnit.SECONDS);
                for (java.util.concurrent.Future<MemorySession> each : opened) {
                    assertThat(each.get(30, TimeUnit.SECONDS)).isSameAs(first);
                }
            } finally {
                pool.shutdownNow();
            }
            first(memory).userMessage("one rollout");
            try (var files = Files.walk(home.resolve("sessions"))) {
                List<Path> rollouts = files.filter(f -> f.toString().endsWith(".jsonl")).toList();
                assertThat(rollouts).singleElement();
                assertThat(Files.readAllLines(rollouts.get(0)).stream().filter(l -> l.contains("\"session_meta\"")))
                        .as("one session_meta line: opened once").hasSize(1);
            }
        }
    }

    private static MemorySession first(MemoryEngine memory) {
        return memory.conversation("same-chat");
    }

    /**
     * Issue 36: an idle conversation evicted by a sweep was closed on the thread of whichever
     * request swept. Now the sweep only marks it closed (further use fails at once) and the close
     * itself (here: the sub-agent's spawn edge set to CLOSED in the store) runs on the executor.
     */
    @Test
    void anEvictedConversation_isClosedOnTheExecutor_notOnTheSweepingCallersThread() {
        ManualExecutor executor = new ManualExecutor();
        MemoriesConfig quiet = MemoriesConfig.builder().generateMemories(false).build();
        try (MemoryEngine memory = engine().config(quiet).executor(executor)
                .conversationIdleTimeout(Duration.ofMinutes(30)).build()) {
            MemorySession child = memory.conversation(dev.mnemo.SessionContext.root("child").spawnedBy("root"));
            child.userMessage("a sub-agent's question");
            executor.runAll();
            clock.advance(Duration.ofMinutes(31));

            memory.conversation("someone-else"); // this caller sweeps

            assertThatThrownBy(() -> child.userMessage("late")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            assertThat(memory.agentGraph().children("root", java.util.Optional.of(dev.mnemo.SpawnEdgeStatus.CLOSED)))
                    .as("not closed on the caller's thread").isEmpty();

            executor.runAll();

            assertThat(memory.agentGraph().children("root", java.util.Optional.of(dev.mnemo.SpawnEdgeStatus.CLOSED)))
                    .containsExactly("child");
        }
    }

    private static long usedHeapAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /** Runs nothing until told: shows what the engine queued. */
    private static final class ManualExecutor extends AbstractExecutorService {
        final List<Runnable> queued = new ArrayList<>();
        private boolean shutdown;

        @Override
        public synchronized void execute(Runnable command) {
            queued.add(command);
        }

        void runAll() {
            List<Runnable> now;
            synchronized (this) {
                now = List.copyOf(queued);
                queued.clear();
            }
            now.forEach(Runnable::run);
        }

        @Override
        public synchronized void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown();
            return List.of();
        }

        @Override
        public synchronized boolean isShutdown() {
            return shutdown;
        }

        @Override
        public synchronized boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }
}
