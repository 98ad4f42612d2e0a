package dev.mnemo;

/**
 * The state Mnemo keeps cannot be opened, read or written: the state database, or a recorded
 * session's rollout file. The message names the file.
 */
public class MemoryStoreException extends MemoryException {

    private static final long serialVersionUID = 1L;

    public MemoryStoreException(String message) {
        super(message);
    }

    public MemoryStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
