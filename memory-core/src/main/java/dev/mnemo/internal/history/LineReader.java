package dev.mnemo.internal.history;

import dev.mnemo.HistoryEntry;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Reads the history's complete lines, those ending in {@code \n}, one at a time, as Codex counts
 * them; a last line without its newline (a write cut short) is not a line yet.
 */
final class LineReader {

    private final InputStream in;
    private byte[] line = new byte[256];
    private int length;

    LineReader(FileChannel channel) throws IOException {
        channel.position(0);
        this.in = new BufferedInputStream(Channels.newInputStream(channel), 8192);
    }

    /** Moves to the next complete line; false at the end. */
    boolean next() throws IOException {
        length = 0;
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                return true;
            }
            if (length == line.length) {
                line = Arrays.copyOf(line, line.length * 2);
            }
            line[length++] = (byte) b;
        }
        return false;
    }

    /** The current line as an entry found at {@code offset}; null when it is not a history line. */
    HistoryEntry entry(long offset) {
        return HistoryFile.parse(line, 0, length, offset);
    }
}
