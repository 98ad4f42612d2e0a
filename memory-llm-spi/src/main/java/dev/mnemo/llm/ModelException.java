package dev.mnemo.llm;

import java.util.Objects;

/**
 * A model request failed. {@link #reason()} says why; {@link #retryable()} says whether sending the
 * same request later may succeed (rate limits, time-outs, server and network errors) or not
 * (authentication, invalid request, context window, content filter).
 */
public class ModelException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a model request failed. */
    public enum Reason {
        RATE_LIMITED(true),
        TIMEOUT(true),
        AUTHENTICATION(false),
        INVALID_REQUEST(false),
        CONTEXT_WINDOW_EXCEEDED(false),
        CONTENT_FILTERED(false),
        SERVER(true),
        NETWORK(true),
        UNKNOWN(false);

        private final boolean retryable;

        Reason(boolean retryable) {
            this.retryable = retryable;
        }

        /** Whether a failure for this reason may go away if the request is sent again later. */
        public boolean retryable() {
            return retryable;
        }

        /**
         * The reason an HTTP error status stands for when the body says nothing more precise:
         * 401/403 authentication, 408 time-out, 429 rate limit, 5xx server, other 4xx invalid
         * request; anything else unknown. Shared by the adapters so they retry alike.
         */
        public static Reason forHttpStatus(int status) {
            if (status == 401 || status == 403) {
                return AUTHENTICATION;
            }
            if (status == 408) {
                return TIMEOUT;
            }
            if (status == 429) {
                return RATE_LIMITED;
            }
            if (status >= 500 && status <= 599) {
                return SERVER;
            }
            return status >= 400 && status < 500 ? INVALID_REQUEST : UNKNOWN;
        }
    }

    private final Reason reason;

    public ModelException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public ModelException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }

    public boolean retryable() {
        return reason.retryable();
    }

    @Override
    public String toString() {
        return getClass().getName() + "[" + reason + "]: " + getMessage();
    }
}
