package dev.mnemo.internal.rollout;

import io.airlift.compress.zstd.ZstdInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens rollout files, compressed or not. Codex (0.137.0 and later) compresses a rollout idle for
 * 7 days or more to {@code rollout-*.jsonl.zst} (zstd, level 3); those are decompressed while
 * they stream, with Airlift's pure-Java zstd decoder. Corrupt or truncated data is an
 * {@link IOException} naming the file, never an unchecked exception from the decoder.
 */
final class CompressedRollouts {

    /** The suffix Codex gives a compressed rollout. */
    static final String ZSTD_SUFFIX = ".zst";

    private CompressedRollouts() {}

    /** Whether {@code path} names a zstd-compressed rollout. */
    static boolean isCompressed(Path path) {
        Path name = path.getFileName();
        return name != null && name.toString().endsWith(ZSTD_SUFFIX);
    }

    /** The rollout's JSONL bytes: the file itself, or its decompressed content for {@code .zst}. */
    static InputStream open(Path rollout) throws IOException {
        InputStream file = Files.newInputStream(rollout);
        if (!isCompressed(rollout)) {
            return file;
        }
        return new Decompressing(file, rollout);
    }

    /** Decompresses, reporting decoder failures as I/O errors that say which file and what broke. */
    private static final class Decompressing extends FilterInputStream {
        private final Path rollout;

        Decompressing(InputStream file, Path rollout) {
            super(new ZstdInputStream(file));
            this.rollout = rollout;
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (IOException | RuntimeException e) {
                throw corrupt(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (IOException | RuntimeException e) {
                throw corrupt(e);
            }
        }

        private IOException corrupt(Exception e) {
            String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new IOException("corrupt or truncated zstd data in " + rollout + ": " + detail, e);
        }
    }
}
