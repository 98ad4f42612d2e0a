package dev.mnemo.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@link OpenAiWireServer} answers one request with: assistant text (streamed in the given
 * pieces when the client asks for a stream), tool calls, or an HTTP error with an OpenAI-shaped
 * body.
 */
public sealed interface WireReply {

    /** Prompt tokens reported in {@code usage}. */
    default long inputTokens() {
        return 10;
    }

    /** Completion tokens reported in {@code usage}. */
    default long outputTokens() {
        return 5;
    }

    /** The whole text as one piece. */
    static WireReply text(String text) {
        return new Text(text, List.of(text));
    }

    /**
     * A text streamed in {@code chunks} (their concatenation must be {@code text}); a plain
     * request gets the whole text.
     */
    static WireReply text(String text, String... chunks) {
        return new Text(text, List.of(chunks));
    }

    /** One function call. */
    static WireReply toolCall(String id, String name, String argumentsJson) {
        return new ToolCalls(List.of(new Call(id, name, argumentsJson)));
    }

    /**
     * {@code reply}, sent only after {@code delay}: a slow model, for testing a client's time-out.
     * The server's own thread waits; the test does not.
     */
    static WireReply delayed(Duration delay, WireReply reply) {
        return new Delayed(delay, reply);
    }

    /**
     * No answer at all until the server closes: for testing a client's request time-out without the
     * test sleeping (the client gives up on its own clock; closing the server releases the request).
     */
    static WireReply stall() {
        return new Stall();
    }

    /** An HTTP error; {@code body} is sent as given (use OpenAI's {@code {"error": {...}}} shape). */
    static WireReply failure(int status, String body) {
        return new Failure(status, body);
    }

    /**
     * OpenAI's HTTP 400 for a request larger than the model's window, in its own words
     * ("maximum context length is {@code windowTokens} tokens. However, your messages resulted in
     * {@code requestTokens} tokens"), with code {@code context_length_exceeded}.
     */
    static Failure contextLengthExceeded(long windowTokens, long requestTokens) {
        return new Failure(400, "{\"error\":{\"message\":\"This model's maximum context length is "
                + windowTokens + " tokens. However, your messages resulted in " + requestTokens
                + " tokens. Please reduce the length of the messages.\",\"type\":\"invalid_request_error\",\"param\":\"messages\","
                + "\"code\":\"context_length_exceeded\"}}");
    }

    /**
     * llama.cpp's server's HTTP 400 for a prompt larger than its context: "request
     * ({@code requestTokens} tokens) exceeds the available context size ({@code windowTokens}
     * tokens)", type {@code exceed_context_size_error}, with the two sizes as fields too.
     */
    static Failure contextSizeExceeded(long windowTokens, long requestTokens) {
        return new Failure(400, "{\"error\":{\"code\":400,\"message\":\"request (" + requestTokens
                + " tokens) exceeds the available context size (" + windowTokens + " tokens)\","
                + "\"type\":\"exceed_context_size_error\",\"n_prompt_tokens\":" + requestTokens
                + ",\"n_ctx\":" + windowTokens + "}}");
    }

    /** Assistant text. */
    record Text(String text, List<String> chunks) implements WireReply {
        public Text {
            Objects.requireNonNull(text, "text");
            chunks = List.copyOf(chunks);
            if (!String.join("", chunks).equals(text)) {
                throw new IllegalArgumentException("the chunks " + chunks + " do not add up to the text '" + text + "'");
            }
        }
    }

    /** Function calls, answered with {@code finish_reason: tool_calls}. */
    record ToolCalls(List<Call> calls) implements WireReply {
        public ToolCalls {
            calls = List.copyOf(calls);
            if (calls.isEmpty()) {
                throw new IllegalArgumentException("a tool-call reply needs at least one call");
            }
        }
    }

    /** One function call: its id, the function's name and its JSON arguments. */
    record Call(String id, String name, String argumentsJson) {
        public Call {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(argumentsJson, "argumentsJson");
        }
    }

    /** A reply the server holds back for a while. */
    record Delayed(Duration delay, WireReply reply) implements WireReply {
        public Delayed {
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(reply, "reply");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("a delay is not negative, was " + delay);
            }
        }
    }

    /** An HTTP error status with its body. */
    record Failure(int status, String body) implements WireReply {
        public Failure {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("an error status is 400..599, was " + status);
            }
            Objects.requireNonNull(body, "body");
        }
    }

    /** No answer until the server closes. */
    record Stall() implements WireReply {}
}
