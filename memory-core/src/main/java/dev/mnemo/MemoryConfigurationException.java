package dev.mnemo;

/** Configuration is invalid: a bad value, key or file. The message names the key and the file. */
public class MemoryConfigurationException extends MemoryException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message that names the bad key or value and the file.
     *
     * @param message what is wrong and where
     */
    public MemoryConfigurationException(String message) {
        super(message);
    }

    /**
     * An exception with a message that names the bad key or value and the file, and its cause.
     *
     * @param message what is wrong and where
     * @param cause the failure that revealed it, such as a TOML parse error
     */
    public MemoryConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
