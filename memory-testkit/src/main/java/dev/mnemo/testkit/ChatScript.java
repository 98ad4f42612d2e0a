package dev.mnemo.testkit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.function.Function;

/**
 * A responder for {@link OpenAiWireServer} that keeps an application's chat turns apart from the
 * requests Mnemo's background pipeline sends through the same model: a Phase 1 request (a
 * {@code json_schema} structured-output request) gets {@link #phase1Reply}, a consolidation agent
 * turn (offered the workspace tool {@code list_files}) gets a short text and so ends at once, and
 * every other request takes the next reply {@link #enqueue enqueued} here, in order.
 *
 * <pre>{@code
 * ChatScript script = ChatScript.create();
 * OpenAiWireServer server = OpenAiWireServer.start(script);
 * script.enqueue(WireReply.text("Use ./gradlew build."));
 * }</pre>
 *
 * <p>So a background startup task that happens to run during a test never takes a reply meant for
 * the conversation under test. With no chat reply left, a chat request gets HTTP 500.
 */
public final class ChatScript implements Function<WireRequest, WireReply> {

    /** A valid Phase 1 answer: a short summary, a slug and one raw memory. */
    public static final String DEFAULT_PHASE1_REPLY = "{\"rollout_summary\":\"The user asked how to build the "
            + "project; the answer was ./gradlew build.\",\"rollout_slug\":\"gradle-build\",\"raw_memory\":"
            + "\"The project builds with ./gradlew build.\"}";

    private final Deque<WireReply> chat = new ArrayDeque<>();
    private volatile String phase1Reply = DEFAULT_PHASE1_REPLY;

    private ChatScript() {}

    /**
     * A script with no chat reply queued, answering Phase 1 with {@link #DEFAULT_PHASE1_REPLY}.
     *
     * @return a new script
     */
    public static ChatScript create() {
        return new ChatScript();
    }

    /**
     * Adds a reply for the next chat request.
     *
     * @param reply the reply, taken after every reply queued before it; not null
     * @return this script
     */
    public ChatScript enqueue(WireReply reply) {
        Objects.requireNonNull(reply, "reply");
        synchronized (chat) {
            chat.addLast(reply);
        }
        return this;
    }

    /**
     * The JSON text every Phase 1 request is answered with; default {@link #DEFAULT_PHASE1_REPLY}.
     *
     * @param json the reply's JSON text, in Mnemo's extraction schema; not null
     * @return this script
     */
    public ChatScript phase1Reply(String json) {
        this.phase1Reply = Objects.requireNonNull(json, "json");
        return this;
    }

    /**
     * How many chat replies are still queued.
     *
     * @return the number of queued replies no chat request has taken yet
     */
    public int pending() {
        synchronized (chat) {
            return chat.size();
        }
    }

    /**
     * Whether {@code request} is one of Mnemo's Phase 1 requests.
     *
     * @param request a request the server received; not null
     * @return true if it asks for a {@code json_schema} response format
     */
    public static boolean isPhase1(WireRequest request) {
        return request.responseFormatType().equals("json_schema");
    }

    /**
     * Whether {@code request} is a turn of Mnemo's default consolidation agent.
     *
     * @param request a request the server received; not null
     * @return true if it offers the {@code list_files} tool
     */
    public static boolean isConsolidation(WireRequest request) {
        return request.toolNames().contains("list_files");
    }

    @Override
    public WireReply apply(WireRequest request) {
        if (isPhase1(request)) {
            return WireReply.text(phase1Reply);
        }
        if (isConsolidation(request)) {
            return WireReply.text("Nothing to consolidate in this test.");
        }
        synchronized (chat) {
            WireReply next = chat.pollFirst();
            return next != null ? next : WireReply.failure(500, "{\"error\":{\"message\":\"the chat script has no "
                    + "reply left\",\"type\":\"server_error\",\"param\":null,\"code\":null}}");
        }
    }
}
