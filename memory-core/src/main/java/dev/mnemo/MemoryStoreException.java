package dev.mnemo;

/**
 * The state Mnemo keeps cannot be opened, read or written: the state database, or a recorded
 * session's rollout file. The message names the file.
 */
public class MemoryStoreException extends MemoryException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message.
     *
     * @param message what failed, naming the file
     */
    public MemoryStoreException(String message) {
        super(message);
    }

    /**
     * An exception with a message and the failure that caused it.
     *
     * @param message what failed, naming the file
     * @param cause the underlying failure, usually an {@link java.io.IOException} or SQL error
     */
    public MemoryStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
