package dev.mnemo.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.internal.read.DeveloperInstructions;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The read path's operations reach every listener that hears memory operations, named with the
 * store's label asked once; with listeners that all keep the empty default, none is built.
 */
class ReadPathEventsTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-04T12:00:00Z"), ZoneOffset.UTC);

    /** Hears memory operations. */
    private static final class Recording implements MemoryEventListener {
        final List<MemoryOperation> heard = new ArrayList<>();

        @Override
        public void memoryOperation(MemoryOperation operation) {
            heard.add(operation);
        }
    }

    /** Hears something else only. */
    private static final class PhaseCounter implements MemoryEventListener {
        int claimed;

        @Override
        public void phase1Claimed(int count) {
            claimed += count;
        }
    }

    private static Supplier<String> counted(AtomicInteger asked) {
        return () -> {
            asked.incrementAndGet();
            return "home";
        };
    }

    @Test
    void eachInstructionsBuild_isHeard_withTheStoreLabelAskedOnce() {
        Recording recording = new Recording();
        AtomicInteger asked = new AtomicInteger();
        ReadPathEvents events = new ReadPathEvents(new SafeListener(List.of(new PhaseCounter(), recording)),
                counted(asked), CLOCK);

        events.instructions(events.start(), DeveloperInstructions.Built.NONE);
        events.instructions(events.start(), DeveloperInstructions.Built.NONE);

        assertThat(recording.heard).hasSize(2).allSatisfy(operation -> {
            assertThat(operation.type()).isEqualTo(MemoryOperation.Type.SEARCH);
            assertThat(operation.source()).isEqualTo(ReadPathEvents.INSTRUCTIONS);
            assertThat(operation.storeId()).isEqualTo("home");
            assertThat(operation.startedAt()).isEqualTo(CLOCK.instant());
        });
        assertThat(asked).hasValue(1);
    }

    @Test
    void listenersThatKeepTheEmptyDefault_getNoOperationBuilt() {
        AtomicInteger asked = new AtomicInteger();
        SafeListener listener = new SafeListener(List.of(new PhaseCounter(), new MemoryEventListener() {}));
        ReadPathEvents events = new ReadPathEvents(listener, counted(asked), CLOCK);

        events.instructions(events.start(), DeveloperInstructions.Built.NONE);
        events.instructionsFailed(events.start(), new IllegalStateException("boom"));

        assertThat(listener.hearsMemoryOperations()).isFalse();
        assertThat(asked).hasValue(0);
        assertThat(new SafeListener(List.of(new PhaseCounter(), new Recording())).hearsMemoryOperations()).isTrue();
    }

    @Test
    void aListenerNotWrappedInSafeListener_isAlwaysTold() {
        Recording recording = new Recording();
        ReadPathEvents events = new ReadPathEvents(recording, () -> "home", CLOCK);

        events.instructions(events.start(), DeveloperInstructions.Built.NONE);

        assertThat(recording.heard).hasSize(1);
    }
}
