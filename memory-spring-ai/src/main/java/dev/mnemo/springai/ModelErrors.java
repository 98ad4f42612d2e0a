package dev.mnemo.springai;

import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelException.Reason;
import java.io.InterruptedIOException;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Turns what a Spring AI {@code ChatModel} throws into a {@link ModelException} with the reason a
 * caller can act on. Spring AI has no common exception type with an HTTP status, so the status is
 * read from the exception chain the way the common clients expose it: a {@code statusCode()} method
 * (the OpenAI Java SDK's {@code OpenAIServiceException}), or {@code getStatusCode()} /
 * {@code getRawStatusCode()} (Spring's {@code RestClientResponseException} and
 * {@code WebClientResponseException}), returning an {@code int} or an object with {@code value()}.
 * Without a status, time-outs and I/O failures are recognised by type, and Spring AI's
 * {@code TransientAiException} by name.
 */
final class ModelErrors {

    private static final String[] STATUS_METHODS = {"statusCode", "getStatusCode", "getRawStatusCode"};

    private ModelErrors() {}

    static ModelException map(RuntimeException failure) {
        if (failure instanceof ModelException modelException) {
            return modelException;
        }
        String message = describe(failure);
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            OptionalInt status = status(t);
            if (status.isPresent()) {
                return new ModelException(forStatus(status.getAsInt(), message), "HTTP " + status.getAsInt() + ": "
                        + message, failure);
            }
        }
        // A time-out anywhere in the chain wins: clients wrap it in their own I/O exception.
        if (anyInChain(failure, t -> t instanceof TimeoutException || t instanceof InterruptedIOException
                || t.getClass().getSimpleName().contains("Timeout"))) {
            return new ModelException(Reason.TIMEOUT, "no answer in time: " + message, failure);
        }
        if (anyInChain(failure, t -> t instanceof IOException || t.getClass().getSimpleName().endsWith("IoException"))) {
            return new ModelException(Reason.NETWORK, "could not reach the model: " + message, failure);
        }
        if (anyInChain(failure, t -> t.getClass().getSimpleName().equals("TransientAiException"))) {
            return new ModelException(Reason.SERVER, message, failure);
        }
        return new ModelException(Reason.UNKNOWN, message, failure);
    }

    private static boolean anyInChain(Throwable failure, Predicate<Throwable> test) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (test.test(t)) {
                return true;
            }
        }
        return false;
    }

    /** The same statuses {@code memory-llm-openai} distinguishes, so both adapters retry alike. */
    static Reason forStatus(int status, String message) {
        String text = message.toLowerCase(Locale.ROOT);
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
            // OpenAI and vLLM, llama.cpp's server ("exceeds the available context size"), Anthropic.
            if (text.contains("context_length_exceeded") || text.contains("context window")
                    || text.contains("maximum context length") || text.contains("context size")
                    || text.contains("prompt is too long")) {
                return Reason.CONTEXT_WINDOW_EXCEEDED;
            }
            if (text.contains("content_filter") || text.contains("content management policy")) {
                return Reason.CONTENT_FILTERED;
            }
        }
        return Reason.forHttpStatus(status);
    }

    private static OptionalInt status(Throwable t) {
        for (String name : STATUS_METHODS) {
            try {
                Method method = t.getClass().getMethod(name);
                Object value = method.invoke(t);
                if (value instanceof Number number) {
                    return valid(number.intValue());
                }
                if (value != null) {
                    Object inner = value.getClass().getMethod("value").invoke(value);
                    if (inner instanceof Number number) {
                        return valid(number.intValue());
                    }
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // not this shape; try the next name
            }
        }
        return OptionalInt.empty();
    }

    private static OptionalInt valid(int status) {
        return status >= 100 && status <= 599 ? OptionalInt.of(status) : OptionalInt.empty();
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return failure.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
