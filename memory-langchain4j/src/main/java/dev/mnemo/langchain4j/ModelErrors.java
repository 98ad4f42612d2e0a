package dev.mnemo.langchain4j;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.langchain4j.exception.UnsupportedFeatureException;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelException.Reason;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.util.Locale;

/** LangChain4j's exception hierarchy as {@link ModelException} reasons. */
final class ModelErrors {

    private ModelErrors() {}

    static ModelException translate(RuntimeException error) {
        if (error instanceof ModelException already) {
            return already;
        }
        Reason reason = reason(error);
        return new ModelException(reason, "LangChain4j model call failed (" + reason + "): " + error.getMessage(), error);
    }

    static Reason reason(Throwable error) {
        if (error instanceof RateLimitException) {
            return Reason.RATE_LIMITED;
        }
        if (error instanceof TimeoutException) {
            return Reason.TIMEOUT;
        }
        if (error instanceof AuthenticationException) {
            return Reason.AUTHENTICATION;
        }
        if (error instanceof ContentFilteredException) {
            return Reason.CONTENT_FILTERED;
        }
        if (error instanceof InvalidRequestException || error instanceof ModelNotFoundException
                || error instanceof UnsupportedFeatureException) {
            return mentionsContextWindow(error) ? Reason.CONTEXT_WINDOW_EXCEEDED : Reason.INVALID_REQUEST;
        }
        if (error instanceof InternalServerException) {
            return Reason.SERVER;
        }
        if (error instanceof UnresolvedModelServerException) {
            return Reason.NETWORK;
        }
        if (error instanceof HttpException http) {
            return byStatus(http.statusCode(), error);
        }
        Throwable cause = error.getCause();
        if (cause != null && cause != error) {
            Reason fromCause = reason(cause);
            if (fromCause != Reason.UNKNOWN) {
                return fromCause;
            }
        }
        if (error instanceof HttpTimeoutException || error instanceof java.util.concurrent.TimeoutException) {
            return Reason.TIMEOUT;
        }
        if (error instanceof IOException) {
            return Reason.NETWORK;
        }
        if (error instanceof RetriableException) {
            return Reason.SERVER;
        }
        if (error instanceof NonRetriableException) {
            return Reason.INVALID_REQUEST;
        }
        return Reason.UNKNOWN;
    }

    /** The shared status mapping, refined to a context-window error when the message says so. */
    private static Reason byStatus(int status, Throwable error) {
        Reason reason = Reason.forHttpStatus(status);
        return reason == Reason.INVALID_REQUEST && mentionsContextWindow(error) ? Reason.CONTEXT_WINDOW_EXCEEDED : reason;
    }

    private static boolean mentionsContextWindow(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            // OpenAI says context_length_exceeded; compatible servers often only say it in words: llama.cpp's
            // "exceeds the available context size", Anthropic's "prompt is too long".
            if (message.contains("context_length") || message.contains("context length")
                    || message.contains("context window") || message.contains("maximum context")
                    || message.contains("context size") || message.contains("prompt is too long")) {
                return true;
            }
        }
        return false;
    }
}
