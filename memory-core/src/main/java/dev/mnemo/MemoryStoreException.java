package dev.mnemo;

/** The state database cannot be opened, read or written. The message names the file. */
public class MemoryStoreException extends MemoryException {

    private static final long serialVersionUID = 1L;

    public MemoryStoreException(String message) {
        super(message);
    }

    public MemoryStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
