package dev.mnemo;

/**
 * The root of Mnemo's unchecked exceptions. The subclasses say what a caller can do about it:
 * {@link MemoryConfigurationException} (fix the configuration), {@link MemoryStoreException} (the
 * state database is unusable), {@link MemoryWorkspaceException} (the memory folder is unusable),
 * {@link ConversationBusyException} (retry when the conversation's previous answer is complete).
 */
public abstract class MemoryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message for the person who will read the log.
     *
     * @param message what went wrong
     */
    protected MemoryException(String message) {
        super(message);
    }

    /**
     * An exception with a message and the failure that caused it.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    protected MemoryException(String message, Throwable cause) {
        super(message, cause);
    }
}
