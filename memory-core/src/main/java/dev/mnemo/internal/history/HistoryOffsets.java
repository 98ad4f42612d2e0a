package dev.mnemo.internal.history;

import dev.mnemo.spi.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Offsets that a rewrite of the history makes stale, detectably. An offset is
 * {@code generation << 40 | line number}: 2^40 lines per generation, 23 bits of generation (so an
 * offset stays a non-negative {@code long}). The generation lives in a one-number sidecar file
 * ({@code history.jsonl.generation}), read and changed only under the history's lock. It starts at
 * a random value when the sidecar is first made, so a home whose two files were deleted does not
 * take back the generation an old offset carries; it is bumped before every rewrite, so a crash
 * in the middle of one makes offsets stale rather than wrong.
 */
final class HistoryOffsets {

    static final int LINE_BITS = 40;
    static final long LINE_MASK = (1L << LINE_BITS) - 1;
    static final long GENERATION_MASK = (1L << 23) - 1;

    private final Path sidecar;

    HistoryOffsets(Path sidecar) {
        this.sidecar = sidecar;
    }

    static long offset(long generation, long line) {
        return (generation & GENERATION_MASK) << LINE_BITS | (line & LINE_MASK);
    }

    static long generation(long offset) {
        return offset >>> LINE_BITS;
    }

    static long line(long offset) {
        return offset & LINE_MASK;
    }

    /** The current generation; 0 before the first write. Call under the history's lock. */
    long current() throws IOException {
        try {
            String text = Files.readString(sidecar, StandardCharsets.US_ASCII).strip();
            return Long.parseLong(text) & GENERATION_MASK;
        } catch (NoSuchFileException e) {
            return 0;
        } catch (NumberFormatException e) {
            return 0; // a damaged sidecar: the next bump replaces it
        }
    }

    /** Moves to the next generation (a random one for a new sidecar). Call under the exclusive lock. */
    void bump() throws IOException {
        long next = Files.exists(sidecar) ? (current() + 1) & GENERATION_MASK
                : ThreadLocalRandom.current().nextLong(1, GENERATION_MASK + 1);
        Path temporary = sidecar.resolveSibling(sidecar.getFileName() + ".tmp");
        Files.writeString(temporary, Long.toString(next == 0 ? 1 : next), StandardCharsets.US_ASCII);
        OwnerOnlyFiles.restrictFile(temporary); // 0600, as the history itself
        Files.move(temporary, sidecar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
