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

    /**
     * Prompt tokens reported in {@code usage}.
     *
     * @return the {@code prompt_tokens} (or {@code input_tokens}) to report; 10 unless overridden
     */
    default long inputTokens() {
        return 10;
    }

    /**
     * Completion tokens reported in {@code usage}.
     *
     * @return the {@code completion_tokens} (or {@code output_tokens}) to report; 5 unless overridden
     */
    default long outputTokens() {
        return 5;
    }

    /**
     * The whole text as one piece.
     *
     * @param text the assistant's text; not null
     * @return a text reply streamed, if asked, as a single chunk
     */
    static WireReply text(String text) {
        return new Text(text, List.of(text));
    }

    /**
     * A text streamed in {@code chunks} (their concatenation must be {@code text}); a plain
     * request gets the whole text.
     *
     * @param text the assistant's whole text; not null
     * @param chunks the pieces to stream, in order
     * @return a text reply
     * @throws IllegalArgumentException if the chunks do not add up to {@code text}
     */
    static WireReply text(String text, String... chunks) {
        return new Text(text, List.of(chunks));
    }

    /**
     * One function call.
     *
     * @param id the tool call's id, which the client echoes in its result
     * @param name the name of the function to call
     * @param argumentsJson the call's arguments, as JSON text
     * @return a tool-call reply holding that one call
     */
    static WireReply toolCall(String id, String name, String argumentsJson) {
        return new ToolCalls(List.of(new Call(id, name, argumentsJson)));
    }

    /**
     * {@code reply}, sent only after {@code delay}: a slow model, for testing a client's time-out.
     * The server's own thread waits; the test does not.
     *
     * @param delay how long the server waits before answering; not negative
     * @param reply what it answers with after the wait
     * @return the delayed reply
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    static WireReply delayed(Duration delay, WireReply reply) {
        return new Delayed(delay, reply);
    }

    /**
     * No answer at all until the server closes: for testing a client's request time-out without the
     * test sleeping (the client gives up on its own clock; closing the server releases the request).
     *
     * @return a reply that never answers
     */
    static WireReply stall() {
        return new Stall();
    }

    /**
     * An HTTP error; {@code body} is sent as given (use OpenAI's {@code {"error": {...}}} shape).
     *
     * @param status the HTTP status, 400 to 599
     * @param body the response body, as JSON text
     * @return the failure reply
     * @throws IllegalArgumentException if {@code status} is not an error status
     */
    static WireReply failure(int status, String body) {
        return new Failure(status, body);
    }

    /**
     * OpenAI's HTTP 400 for a request larger than the model's window, in its own words
     * ("maximum context length is {@code windowTokens} tokens. However, your messages resulted in
     * {@code requestTokens} tokens"), with code {@code context_length_exceeded}.
     *
     * @param windowTokens the model's context window, in tokens
     * @param requestTokens the size of the rejected request, in tokens
     * @return an HTTP 400 failure with OpenAI's body
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
     *
     * @param windowTokens the server's context size ({@code n_ctx}), in tokens
     * @param requestTokens the size of the rejected prompt ({@code n_prompt_tokens}), in tokens
     * @return an HTTP 400 failure with llama.cpp's body
     */
    static Failure contextSizeExceeded(long windowTokens, long requestTokens) {
        return new Failure(400, "{\"error\":{\"code\":400,\"message\":\"request (" + requestTokens
                + " tokens) exceeds the available context size (" + windowTokens + " tokens)\","
                + "\"type\":\"exceed_context_size_error\",\"n_prompt_tokens\":" + requestTokens
                + ",\"n_ctx\":" + windowTokens + "}}");
    }

    /**
     * Assistant text.
     *
     * @param text the whole text
     * @param chunks the pieces a stream sends, in order; they add up to {@code text}
     */
    record Text(String text, List<String> chunks) implements WireReply {
        /**
         * Checks the text and copies the chunks.
         *
         * @param text the whole text; not null
         * @param chunks the pieces a stream sends, in order
         * @throws IllegalArgumentException if the chunks do not add up to the text
         */
        public Text {
            Objects.requireNonNull(text, "text");
            chunks = List.copyOf(chunks);
            if (!String.join("", chunks).equals(text)) {
                throw new IllegalArgumentException("the chunks " + chunks + " do not add up to the text '" + text + "'");
            }
        }
    }

    /**
     * Function calls, answered with {@code finish_reason: tool_calls}.
     *
     * @param calls the calls, in order; at least one
     */
    record ToolCalls(List<Call> calls) implements WireReply {
        /**
         * Copies the calls.
         *
         * @param calls the calls, in order; at least one
         * @throws IllegalArgumentException if there is no call
         */
        public ToolCalls {
            calls = List.copyOf(calls);
            if (calls.isEmpty()) {
                throw new IllegalArgumentException("a tool-call reply needs at least one call");
            }
        }
    }

    /**
     * One function call: its id, the function's name and its JSON arguments.
     *
     * @param id the call's id, which the client echoes in its tool result; not null
     * @param name the name of the function to call; not null
     * @param argumentsJson the call's arguments, as JSON text; not null
     */
    record Call(String id, String name, String argumentsJson) {
        /**
         * Checks that no part is null.
         *
         * @param id the call's id; not null
         * @param name the function's name; not null
         * @param argumentsJson the call's arguments, as JSON text; not null
         * @throws NullPointerException if a part is null
         */
        public Call {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(argumentsJson, "argumentsJson");
        }
    }

    /**
     * A reply the server holds back for a while.
     *
     * @param delay how long the server waits before answering; not negative
     * @param reply what it answers with after the wait
     */
    record Delayed(Duration delay, WireReply reply) implements WireReply {
        /**
         * Checks the delay and the reply.
         *
         * @param delay how long the server waits; not null, not negative
         * @param reply what it answers with after the wait; not null
         * @throws IllegalArgumentException if {@code delay} is negative
         */
        public Delayed {
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(reply, "reply");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("a delay is not negative, was " + delay);
            }
        }
    }

    /**
     * An HTTP error status with its body.
     *
     * @param status the HTTP status, 400 to 599
     * @param body the response body, sent as given; not null
     */
    record Failure(int status, String body) implements WireReply {
        /**
         * Checks the status and the body.
         *
         * @param status the HTTP status, 400 to 599
         * @param body the response body; not null
         * @throws IllegalArgumentException if {@code status} is not between 400 and 599
         */
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
