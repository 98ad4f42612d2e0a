package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.Stage1Output;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Scoped memory: each stage-1 memory keeps beside it the project its thread was in when the memory
 * was extracted ({@link Stage1Output#project()}), read back by every query that returns memories.
 * Moving the thread to another project later does not move its memory; the next extraction does.
 * (That a thread row keeps its project is the {@link ThreadStoreContract} part.)
 *
 * <p>One role's contract: a store that serves this role extends it alone (its fixtures also write
 * thread rows); {@link MemoryStoreContract} runs it, with every other role, for a whole store.
 */
public abstract class ProjectStoreContract extends MemoryStoreContractSupport {

    private static final String BILLING = "acme/billing";
    /** A key as {@code ProjectKeys.forDirectory} derives it: a repository's folder. */
    private static final String SEARCH = "/home/ana/src/search";

    @Test
    void stage1Success_storesTheThreadsProjectBesideTheMemory() {
        addThreadIn("billing", BILLING);
        addThread("global");

        storeMemory("billing", version(100));
        storeMemory("global", version(100));

        assertThat(store.stage1Output("billing").orElseThrow().project()).contains(BILLING);
        assertThat(store.stage1Output("global").orElseThrow().project()).isEmpty();
        assertThat(projects(store.listStage1OutputsForGlobal(10)))
                .isEqualTo(Map.of("billing", Optional.of(BILLING), "global", Optional.empty()));
    }

    @Test
    void phase2Selection_carriesEachMemorysProject() {
        addThreadIn("a", BILLING);
        addThreadIn("b", SEARCH);
        addThread("c");
        for (String id : List.of("a", "b", "c")) {
            storeMemory(id, version(100));
        }

        assertThat(store.phase2InputSelection(10, 30, NOW))
                .extracting(Stage1Output::threadId, Stage1Output::project)
                .containsExactly(tuple("a", Optional.of(BILLING)), tuple("b", Optional.of(SEARCH)),
                        tuple("c", Optional.empty()));
    }

    @Test
    void outputKeepsTheProjectItWasExtractedUnder_whenTheThreadMovesLater() {
        ThreadInfo inBilling = addThreadIn("a", BILLING);
        storeMemory("a", version(100));

        store.upsertThread(inBilling.toBuilder().project(SEARCH).build());

        assertThat(store.thread("a").orElseThrow().project()).contains(SEARCH);
        assertThat(store.stage1Output("a").orElseThrow().project()).as("extracted under billing").contains(BILLING);
        assertThat(projects(store.phase2InputSelection(10, 30, NOW))).containsEntry("a", Optional.of(BILLING));
        assertThat(projects(store.listStage1OutputsForGlobal(10))).containsEntry("a", Optional.of(BILLING));

        storeMemory("a", version(101));
        assertThat(store.stage1Output("a").orElseThrow().project()).as("re-extracted in search").contains(SEARCH);

        store.upsertThread(inBilling.toBuilder().project(null).build());
        storeMemory("a", version(102));
        assertThat(store.stage1Output("a").orElseThrow().project()).as("re-extracted outside any project")
                .isEmpty();
    }

    /** Upserts an eligible thread, idle long enough to be claimed at {@link #NOW}, in {@code project}. */
    private ThreadInfo addThreadIn(String id, String project) {
        ThreadInfo thread = threadRow(id, NOW.minus(Duration.ofDays(1))).project(project).build();
        store.upsertThread(thread);
        return thread;
    }

    private static Map<String, Optional<String>> projects(List<Stage1Output> outputs) {
        return outputs.stream().collect(Collectors.toMap(Stage1Output::threadId, Stage1Output::project));
    }
}
