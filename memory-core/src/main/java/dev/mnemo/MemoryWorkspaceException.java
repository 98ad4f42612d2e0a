package dev.mnemo;

/** The memory workspace folder or its private history cannot be read or written. The message names the path. */
public class MemoryWorkspaceException extends MemoryException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message.
     *
     * @param message what failed, naming the path
     */
    public MemoryWorkspaceException(String message) {
        super(message);
    }

    /**
     * An exception with a message and the failure that caused it.
     *
     * @param message what failed, naming the path
     * @param cause the underlying failure, usually an {@link java.io.IOException} or SQL error
     */
    public MemoryWorkspaceException(String message, Throwable cause) {
        super(message, cause);
    }
}
