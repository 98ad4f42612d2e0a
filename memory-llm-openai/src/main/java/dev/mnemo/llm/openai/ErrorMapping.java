package dev.mnemo.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelException.Reason;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.util.Locale;

/**
 * Turns HTTP statuses, OpenAI error bodies and I/O failures into {@link ModelException}s whose
 * message carries the server's own words, with the API key blanked out should a server echo it.
 */
final class ErrorMapping {

    private static final int EXCERPT_CHARS = 300;

    private final String apiKey;

    ErrorMapping(String apiKey) {
        this.apiKey = apiKey;
    }

    /**
     * An HTTP error answer: the exception it stands for, and whether sending again may help.
     *
     * @param exception the failure, carrying the server's message
     * @param retryable true for 408, 429 (but not an exhausted quota) and 5xx; never for other 4xx
     */
    record HttpFailure(ModelException exception, boolean retryable) {}

    /** The failure an HTTP error status with {@code body} stands for. */
    HttpFailure fromHttp(URI endpoint, int status, String body) {
        ServerError error = ServerError.parse(body);
        Reason reason = reasonFor(status, error);
        String message = "HTTP " + status + " from " + endpoint + ": " + error.describe();
        // An exhausted quota (429 insufficient_quota) does not come back within seconds.
        boolean retryable = (status == 408 || status == 429 || status >= 500)
                && !error.code().equalsIgnoreCase("insufficient_quota");
        if (rejectsReasoningEffort(status, error)) {
            return new HttpFailure(new ReasoningEffortRejectedException(redact(message)), false);
        }
        return new HttpFailure(new ModelException(reason, redact(message)), retryable);
    }

    /**
     * Whether a 400 answer rejects the reasoning parameter: OpenAI names it in {@code param}
     * ({@code reasoning_effort} on Chat Completions, {@code reasoning.effort} on Responses, with
     * code {@code unsupported_parameter}); compatible servers often only say it in words.
     */
    static boolean rejectsReasoningEffort(int status, ServerError error) {
        if (status != 400 && status != 422) {
            return false;
        }
        String param = error.param().toLowerCase(Locale.ROOT);
        if (param.equals("reasoning_effort") || param.equals("reasoning.effort") || param.equals("reasoning")) {
            return true;
        }
        String m = error.message().toLowerCase(Locale.ROOT);
        boolean namesIt = m.contains("reasoning_effort") || m.contains("reasoning.effort") || m.contains("'reasoning'");
        boolean rejectsIt = m.contains("unsupported") || m.contains("not supported") || m.contains("unrecognized")
                || m.contains("unknown") || m.contains("extra inputs") || m.contains("not permitted");
        return namesIt && rejectsIt;
    }

    /** The server refused the reasoning parameter for this model; sending the request without it may succeed. */
    static final class ReasoningEffortRejectedException extends ModelException {
        private static final long serialVersionUID = 1L;

        ReasoningEffortRejectedException(String message) {
            super(Reason.INVALID_REQUEST, message);
        }
    }

    /** The failure an error object inside a successful HTTP answer stands for (Responses {@code status: failed}). */
    ModelException fromApiError(URI endpoint, JsonNode errorObject) {
        ServerError error = ServerError.of(errorObject);
        Reason reason = switch (error.code().toLowerCase(Locale.ROOT)) {
            case "rate_limit_exceeded" -> Reason.RATE_LIMITED;
            case "server_error", "vector_store_timeout" -> Reason.SERVER;
            default -> isContextWindow(error) ? Reason.CONTEXT_WINDOW_EXCEEDED
                    : isContentFilter(error) ? Reason.CONTENT_FILTERED : Reason.INVALID_REQUEST;
        };
        return new ModelException(reason, redact("the model at " + endpoint + " failed: " + error.describe()));
    }

    /** The failure a transport exception stands for: a time-out or a network error. */
    ModelException fromIo(URI endpoint, IOException e) {
        if (e instanceof HttpTimeoutException) {
            return new ModelException(Reason.TIMEOUT, "no answer from " + endpoint + " in time: " + e.getMessage(), e);
        }
        String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": "
                + e.getMessage();
        return new ModelException(Reason.NETWORK, redact("could not reach " + endpoint + ": " + detail), e);
    }

    private static Reason reasonFor(int status, ServerError error) {
        if (status >= 400 && status < 500 && status != 429 && status != 408) {
            if (isContextWindow(error)) {
                return Reason.CONTEXT_WINDOW_EXCEEDED;
            }
            if (isContentFilter(error)) {
                return Reason.CONTENT_FILTERED;
            }
        }
        return Reason.forHttpStatus(status);
    }

    /**
     * OpenAI says {@code context_length_exceeded}, llama.cpp's server {@code exceed_context_size_error}
     * ("request (M tokens) exceeds the available context size (N tokens)"); other compatible servers
     * often only say it in words.
     */
    static boolean isContextWindow(ServerError error) {
        if (error.code().equalsIgnoreCase("context_length_exceeded")
                || error.type().equalsIgnoreCase("exceed_context_size_error")) {
            return true;
        }
        String m = error.message().toLowerCase(Locale.ROOT);
        return m.contains("context window") || m.contains("context length") || m.contains("context_length")
                || m.contains("maximum context") || m.contains("exceeds the context") || m.contains("context size");
    }

    private static boolean isContentFilter(ServerError error) {
        String code = error.code().toLowerCase(Locale.ROOT);
        return code.equals("content_filter") || code.equals("content_policy_violation");
    }

    private String redact(String text) {
        return apiKey.isEmpty() ? text : text.replace(apiKey, "***");
    }

    /** The start of {@code text} on one line, for messages. */
    static String excerpt(String text) {
        String oneLine = text.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= EXCERPT_CHARS ? oneLine : oneLine.substring(0, EXCERPT_CHARS) + "...";
    }

    /** The parts of an error body worth reporting; empty strings where the server gave none. */
    record ServerError(String message, String type, String code, String param) {

        /**
         * Reads OpenAI's {@code {"error":{"message","type","code"}}}, vLLM's top-level
         * {@code {"message","type","code"}}, {@code {"error":"text"}} (Ollama, llama.cpp), or plain text.
         */
        static ServerError parse(String body) {
            JsonNode json;
            try {
                json = OpenAiLanguageModel.JSON.readTree(body);
            } catch (IOException e) {
                json = null;
            }
            if (json == null || !json.isObject()) {
                return new ServerError(body.isBlank() ? "(empty body)" : excerpt(body), "", "", "");
            }
            JsonNode error = json.get("error");
            if (error != null && error.isObject()) {
                return of(error);
            }
            if (error != null && error.isTextual()) {
                return new ServerError(error.asText(), "", "", "");
            }
            if (json.has("message")) {
                return of(json);
            }
            return new ServerError(excerpt(body), "", "", "");
        }

        static ServerError of(JsonNode error) {
            return new ServerError(text(error, "message"), text(error, "type"), text(error, "code"),
                    text(error, "param"));
        }

        private static String text(JsonNode node, String field) {
            JsonNode value = node.get(field);
            return value == null || value.isNull() ? "" : value.asText();
        }

        String describe() {
            StringBuilder sb = new StringBuilder(message.isEmpty() ? "(no message)" : message);
            if (!type.isEmpty() || !code.isEmpty()) {
                sb.append(" (");
                if (!type.isEmpty()) {
                    sb.append("type ").append(type);
                }
                if (!code.isEmpty()) {
                    sb.append(type.isEmpty() ? "" : ", ").append("code ").append(code);
                }
                sb.append(')');
            }
            return sb.toString();
        }
    }
}
