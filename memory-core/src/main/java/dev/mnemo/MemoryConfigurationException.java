package dev.mnemo;

/** Configuration is invalid: a bad value, key or file. The message names the key and the file. */
public class MemoryConfigurationException extends MemoryException {

    private static final long serialVersionUID = 1L;

    public MemoryConfigurationException(String message) {
        super(message);
    }

    public MemoryConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
