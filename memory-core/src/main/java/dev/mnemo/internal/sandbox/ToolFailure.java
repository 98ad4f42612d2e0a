package dev.mnemo.internal.sandbox;

import java.io.IOException;

/**
 * A tool call the model got wrong (bad path, missing file, bad argument) or that hit a file
 * problem. Its message is written for the model and goes back to it as {@code {"error": "..."}};
 * it never holds an absolute path outside the memory folder. Carries no stack trace: it is an
 * expected outcome, not a bug.
 */
public final class ToolFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ToolFailure(String message) {
        super(message, null, false, false);
    }

    /** {@code path '<path>' <reason>}, the memory tools' wording (Codex's). */
    public static ToolFailure invalidPath(String path, String reason) {
        return new ToolFailure("path '" + path + "' " + reason);
    }

    /** {@code path '<path>' was not found}. */
    public static ToolFailure notFound(String path) {
        return new ToolFailure("path '" + path + "' was not found");
    }

    /** {@code cursor '<cursor>' <reason>}. */
    public static ToolFailure invalidCursor(String cursor, String reason) {
        return new ToolFailure("cursor '" + cursor + "' " + reason);
    }

    /** An I/O error while reading memories, described by {@link ConfinedRoot#describe}. */
    public static ToolFailure io(IOException cause) {
        return new ToolFailure("I/O error while reading memories: " + ConfinedRoot.describe(cause));
    }
}
