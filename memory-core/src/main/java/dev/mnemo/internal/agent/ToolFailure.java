package dev.mnemo.internal.agent;

/**
 * A tool call the model got wrong (bad path, missing file, bad argument). Its message is written
 * for the model and goes back to it as {@code {"error": "..."}}; the loop carries on.
 */
final class ToolFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ToolFailure(String message) {
        super(message, null, false, false);
    }
}
