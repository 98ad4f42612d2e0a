package dev.mnemo.internal.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Runs announced and finished once, their ids on the thread inside them only, operations stamped with the store. */
class BackgroundOperationsTest {

    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final List<MemoryOperation> operations = new CopyOnWriteArrayList<>();
    private final Clock clock = Clock.fixed(Instant.parse("2026-12-04T08:00:00Z"), ZoneOffset.UTC);
    private final BackgroundOperations ops = new BackgroundOperations(new MemoryEventListener() {
        @Override
        public void runStarted(String runId) {
            heard.add("started " + runId);
        }

        @Override
        public void runFinished(String runId) {
            heard.add("finished " + runId);
        }

        @Override
        public void memoryOperation(MemoryOperation operation) {
            operations.add(operation);
            heard.add("operation " + operation.runId().orElse("-"));
        }
    }, "team-home", clock);

    @Test
    void aRunIsAnnouncedWhenStarted_andItsWorkCarriesItsId_onlyWhileInsideIt() {
        BackgroundOperations.Run run = ops.startRun();
        assertThat(heard).containsExactly("started " + run.id());
        assertThat(BackgroundOperations.currentRun()).isEmpty();

        Optional<String> inside = run.within(BackgroundOperations::currentRun);

        assertThat(inside).contains(run.id());
        assertThat(BackgroundOperations.currentRun()).isEmpty();
    }

    @Test
    void runsGetFreshIds_andARunNestedInAnother_givesTheOuterBackWhenItEnds() {
        BackgroundOperations.Run outer = ops.startRun();
        BackgroundOperations.Run inner = ops.startRun();
        assertThat(inner.id()).isNotEqualTo(outer.id()).matches("[0-9a-f]{32}");

        List<Optional<String>> seen = outer.within(() -> List.of(BackgroundOperations.currentRun(),
                inner.within(BackgroundOperations::currentRun), BackgroundOperations.currentRun()));

        assertThat(seen).containsExactly(Optional.of(outer.id()), Optional.of(inner.id()), Optional.of(outer.id()));
    }

    @Test
    void asRun_finishesTheRunOnce_evenWhenTheWorkThrows() {
        assertThatThrownBy(() -> ops.asRun(() -> {
            ops.operation(MemoryOperation.Type.UPDATE, "consolidation", Optional.empty(), 3, List.of(), ops.start(),
                    Optional.empty(), BackgroundOperations.currentRun());
            throw new IllegalStateException("boom");
        })).hasMessage("boom");

        String runId = operations.get(0).runId().orElseThrow();
        assertThat(heard).containsExactly("started " + runId, "operation " + runId, "finished " + runId);
        assertThat(BackgroundOperations.currentRun()).isEmpty();
    }

    @Test
    void finishingARunTwice_isHeardOnce() {
        BackgroundOperations.Run run = ops.startRun();

        run.finish();
        run.finish();

        assertThat(heard).containsExactly("started " + run.id(), "finished " + run.id());
    }

    @Test
    void anOperation_carriesTheStoreId_theWallClocksStart_andNoQuery() {
        ops.operation(MemoryOperation.Type.CREATE, "stage1_output", Optional.of("thread-1"), 1, List.of("a memory"),
                ops.start(), Optional.empty(), Optional.empty());

        assertThat(operations).singleElement().satisfies(op -> {
            assertThat(op.storeId()).isEqualTo("team-home");
            assertThat(op.startedAt()).isEqualTo(clock.instant());
            assertThat(op.elapsed()).isGreaterThanOrEqualTo(Duration.ZERO);
            assertThat(op.query()).isEmpty();
            assertThat(op.records()).containsExactly("a memory");
            assertThat(op.runId()).isEmpty();
        });
    }
}
