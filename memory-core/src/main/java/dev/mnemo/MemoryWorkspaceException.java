package dev.mnemo;

/** The memory workspace folder or its private history cannot be read or written. The message names the path. */
public class MemoryWorkspaceException extends MemoryException {

    private static final long serialVersionUID = 1L;

    public MemoryWorkspaceException(String message) {
        super(message);
    }

    public MemoryWorkspaceException(String message, Throwable cause) {
        super(message, cause);
    }
}
