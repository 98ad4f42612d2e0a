package dev.mnemo.internal.tools;

/**
 * A tool call the model got wrong, or that hit a file problem; its message is shown to the model
 * as it is. Carries no stack trace: it is an expected outcome, not a bug.
 */
final class ToolFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ToolFailure(String message) {
        super(message, null, false, false);
    }

    static ToolFailure invalidPath(String path, String reason) {
        return new ToolFailure("path '" + path + "' " + reason);
    }

    static ToolFailure notFound(String path) {
        return new ToolFailure("path '" + path + "' was not found");
    }

    static ToolFailure invalidCursor(String cursor, String reason) {
        return new ToolFailure("cursor '" + cursor + "' " + reason);
    }

    static ToolFailure io(Exception cause) {
        return new ToolFailure("I/O error while reading memories: " + cause.getMessage());
    }
}
