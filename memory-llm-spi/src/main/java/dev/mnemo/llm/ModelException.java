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
        /** The server refused for now: too many requests or tokens (retryable). */
        RATE_LIMITED(true),
        /** No answer in time (retryable). */
        TIMEOUT(true),
        /** The key is missing, wrong or not allowed. */
        AUTHENTICATION(false),
        /** The server rejected the request as malformed or unsupported. */
        INVALID_REQUEST(false),
        /** The request is larger than the model's context window; {@link ContextOverflow} reads the sizes. */
        CONTEXT_WINDOW_EXCEEDED(false),
        /** The provider's content filter refused the request or the answer. */
        CONTENT_FILTERED(false),
        /** The server failed (5xx; retryable). */
        SERVER(true),
        /** The connection failed or broke (retryable). */
        NETWORK(true),
        /** Anything else. */
        UNKNOWN(false);

        private final boolean retryable;

        Reason(boolean retryable) {
            this.retryable = retryable;
        }

        /**
         * Whether a failure for this reason may go away if the request is sent again later.
         *
         * @return true for rate limits, time-outs, server and network failures
         */
        public boolean retryable() {
            return retryable;
        }

        /**
         * The reason an HTTP error status stands for when the body says nothing more precise:
         * 401/403 authentication, 408 time-out, 429 rate limit, 5xx server, other 4xx invalid
         * request; anything else unknown. Shared by the adapters so they retry alike.
         *
         * @param status the HTTP status code
         * @return the reason it stands for
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

    /** Why the request failed. */
    private final Reason reason;

    /**
     * A failure for {@code reason}.
     *
     * @param reason why the request failed
     * @param message what happened, for people
     */
    public ModelException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * A failure for {@code reason}, caused by {@code cause}.
     *
     * @param reason why the request failed
     * @param message what happened, for people
     * @param cause the underlying failure
     */
    public ModelException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Why the request failed.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Whether the same request may succeed if sent again later: {@link Reason#retryable()}.
     *
     * @return whether the reason is retryable
     */
    public boolean retryable() {
        return reason.retryable();
    }

    @Override
    public String toString() {
        return getClass().getName() + "[" + reason + "]: " + getMessage();
    }
}
