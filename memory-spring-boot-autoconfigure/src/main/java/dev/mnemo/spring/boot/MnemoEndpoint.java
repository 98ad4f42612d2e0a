package dev.mnemo.spring.boot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.Consolidation;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryStatus;
import dev.mnemo.MemoryTools;
import dev.mnemo.PendingMemory;
import dev.mnemo.Phase2Report;
import dev.mnemo.springai.MnemoTenantResolver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code mnemo} Actuator endpoint: what the memory holds and what waits for a decision, and
 * the decisions themselves.
 *
 * <ul>
 *   <li>Read ({@code GET /actuator/mnemo}): the pipeline's status, the global summary, the pending
 *       memories and the consolidation history.
 *   <li>Write ({@code POST /actuator/mnemo} with a JSON body): {@code {"action":"approve","id":…}},
 *       {@code {"action":"reject","id":…}}, {@code {"action":"forget","conversation":…}} (the
 *       conversation and its memory deleted, as {@link dev.mnemo.ThreadRegistry#delete} does; 404
 *       when there is no such conversation) or {@code {"action":"consolidate"}} (Phase 1 and Phase 2
 *       past the success cooldown, started in the background: the answer is 202 at once, the
 *       outcome is logged).
 * </ul>
 *
 * <p>In {@code mnemo.tenancy=per-user} every operation acts on one user's memory, and who may name
 * whom is decided per call: the caller is who the {@link MnemoTenantResolver} finds on the request's
 * thread (asked without advisor params: by default Spring Security's principal). A caller holding
 * the admin role ({@code mnemo.endpoint.admin-role}, default {@code MNEMO_ADMIN}, as a Spring
 * Security authority with or without {@code ROLE_}) names any user ({@code ?user=…} or {@code "user"}
 * in the body); any other caller reaches only their own memory (naming no user, or themselves), and
 * naming someone else, or calling without being signed in, is a 403. A user with no state (no
 * home, no rows) is a 404: no home and no engine is created for a name. The endpoint looks at a
 * user's engine without counting as use ({@link MemoryEngines#visit}): an engine it opened closes
 * right after.
 *
 * <p>Like every Actuator endpoint it is reachable only where the application exposes it
 * ({@code management.endpoints.web.exposure.include}) and its security lets the caller in; it is not
 * exposed by default.
 */
@Endpoint(id = "mnemo")
public class MnemoEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MnemoEndpoint.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ACCEPTED = 202;
    private static final int FORBIDDEN = 403;

    private final @Nullable MemoryEngine shared;
    private final @Nullable MemoryEngines users;
    private final @Nullable TenantStorage storage;
    private final Callers callers;
    private final Object backgroundLock = new Object();
    private @Nullable ExecutorService background;

    /** Who calls the endpoint, per call, on the request's thread. */
    interface Callers {
        /** The signed-in caller's user id; empty when none. */
        Optional<String> caller();

        /** Whether the caller may name any user. */
        boolean isAdmin();
    }

    /**
     * Over one engine ({@code shared}) or one per user ({@code users}); exactly one is non-null.
     * {@code storage}, when known, says which users have state; {@code callers} who may name whom.
     */
    MnemoEndpoint(@Nullable MemoryEngine shared, @Nullable MemoryEngines users, @Nullable TenantStorage storage,
            Callers callers) {
        if ((shared == null) == (users == null)) {
            throw new IllegalArgumentException("the mnemo endpoint needs either one MemoryEngine or MemoryEngines");
        }
        this.shared = shared;
        this.users = users;
        this.storage = storage;
        this.callers = Objects.requireNonNull(callers, "callers");
    }

    /**
     * Status, summary, pending memories and history of the memory ({@code user} in per-user tenancy).
     *
     * @param user the user whose memory to show, in per-user tenancy (default: the caller); none in shared
     *     tenancy
     * @return the memory's state with status 200, or an error body with 400, 403 or 404
     */
    @ReadOperation
    public WebEndpointResponse<Map<String, Object>> memory(@Nullable String user) {
        return withEngine(user, (tenant, engine) -> {
            Map<String, Object> body = new LinkedHashMap<>();
            if (tenant != null) {
                body.put("user", tenant);
            }
            body.put("status", status(engine.admin().status()));
            body.put("summary", summary(engine));
            body.put("pending", engine.admin().pending().stream().map(MnemoEndpoint::pending).toList());
            body.put("history", engine.admin().history().stream().map(MnemoEndpoint::consolidation).toList());
            return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK);
        });
    }

    /**
     * Approves or rejects a pending memory, forgets a conversation, or starts a consolidation.
     *
     * @param action {@code approve}, {@code reject}, {@code forget} or {@code consolidate}
     * @param id the pending id, for approve and reject
     * @param conversation the conversation id, for forget
     * @param user the user, in per-user tenancy
     * @return the outcome with status 200, or an error body with 400 (bad action or missing id), 403 or 404
     */
    @WriteOperation
    public WebEndpointResponse<Map<String, Object>> decide(String action, @Nullable String id,
            @Nullable String conversation, @Nullable String user) {
        if (!List.of("approve", "reject", "forget", "consolidate").contains(action)) {
            return error(WebEndpointResponse.STATUS_BAD_REQUEST,
                    "action must be approve, reject, forget or consolidate, was " + action);
        }
        if (action.equals("consolidate")) {
            return consolidate(user);
        }
        return withEngine(user, (tenant, engine) -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("action", action);
            switch (action) {
                case "approve" -> engine.admin().approve(requireId(action, id));
                case "reject" -> engine.admin().reject(requireId(action, id));
                default -> {
                    String thread = requireConversation(conversation);
                    if (engine.threads().get(thread).isEmpty()) {
                        return error(WebEndpointResponse.STATUS_NOT_FOUND, "no conversation " + thread);
                    }
                    engine.closeConversation(thread);
                    engine.threads().delete(thread);
                    body.put("conversation", thread);
                }
            }
            LOG.info("mnemo endpoint: {}{}{}", action, id == null ? conversation == null ? "" : " " + conversation
                    : " " + id, tenant == null ? "" : " for user " + tenant);
            body.put("pending", engine.admin().pending().size());
            return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK);
        });
    }

    /** Checks the caller now; runs the consolidation on the endpoint's own thread and answers 202. */
    private WebEndpointResponse<Map<String, Object>> consolidate(@Nullable String user) {
        return withTarget(user, tenant -> {
            Runnable work = () -> {
                try {
                    Phase2Report report = tenant == null ? shared.admin().consolidateNow()
                            : users.visit(tenant, engine -> engine.admin().consolidateNow());
                    LOG.info("mnemo endpoint: consolidation{} ended: {}{}",
                            tenant == null ? "" : " for user " + tenant, report.outcome(),
                            report.failure().map(f -> " (" + f + ")").orElse(""));
                } catch (RuntimeException e) {
                    LOG.warn("mnemo endpoint: consolidation{} failed", tenant == null ? "" : " for user " + tenant, e);
                }
            };
            background().execute(work);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("action", "consolidate");
            body.put("started", true);
            if (tenant != null) {
                body.put("user", tenant);
            }
            return new WebEndpointResponse<>(body, ACCEPTED);
        });
    }

    /** The one thread consolidations run on, started on the first and stopped with the context. */
    private ExecutorService background() {
        synchronized (backgroundLock) {
            if (background == null) {
                background = Executors.newSingleThreadExecutor(r -> {
                    Thread thread = new Thread(r, "mnemo-endpoint");
                    thread.setDaemon(true);
                    return thread;
                });
            }
            return background;
        }
    }

    /** Stops the background thread; a consolidation under way is interrupted. */
    @Override
    public void close() {
        ExecutorService running;
        synchronized (backgroundLock) {
            running = background;
            background = null;
        }
        if (running != null) {
            running.shutdownNow();
        }
    }

    /** What an operation does with the engine of its target (the tenant is null for the shared engine). */
    private interface Work {
        WebEndpointResponse<Map<String, Object>> apply(@Nullable String tenant, MemoryEngine engine);
    }

    /** Runs {@code work} on the target's engine, looked at without counting as use; a bad request is a 400. */
    private WebEndpointResponse<Map<String, Object>> withEngine(@Nullable String user, Work work) {
        return withTarget(user, tenant -> {
            try {
                return tenant == null ? work.apply(null, shared) : users.visit(tenant, e -> work.apply(tenant, e));
            } catch (IllegalArgumentException e) {
                throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
            }
        });
    }

    /**
     * Decides whose memory the call is about: null for the shared engine, else the tenant; answers
     * 400, 403 or 404 instead of calling {@code work} when the call may not go on.
     */
    private WebEndpointResponse<Map<String, Object>> withTarget(@Nullable String user,
            Function<@Nullable String, WebEndpointResponse<Map<String, Object>>> work) {
        Optional<String> named = user(user);
        if (shared != null) {
            if (named.isPresent()) {
                return error(WebEndpointResponse.STATUS_BAD_REQUEST,
                        "mnemo.tenancy is shared: there is no per-user memory to name");
            }
            return work.apply(null);
        }
        Optional<String> caller = callers.caller().filter(c -> !c.isBlank());
        String tenant;
        if (callers.isAdmin()) {
            Optional<String> target = named.or(() -> caller);
            if (target.isEmpty()) {
                return error(WebEndpointResponse.STATUS_BAD_REQUEST,
                        "mnemo.tenancy is per-user: name the user (?user=… or \"user\" in the body)");
            }
            tenant = target.get();
        } else if (caller.isEmpty()) {
            LOG.info("mnemo endpoint: refused a call without a signed-in user");
            return error(FORBIDDEN, "sign in: the mnemo endpoint shows a user their "
                    + "own memory, and any user's only to holders of the admin role (mnemo.endpoint.admin-role)");
        } else if (named.isPresent() && !named.get().equals(caller.get())) {
            LOG.info("mnemo endpoint: refused a call naming another user than the caller's own");
            return error(FORBIDDEN, "only your own memory: naming another user needs "
                    + "the admin role (mnemo.endpoint.admin-role)");
        } else {
            tenant = caller.get();
        }
        if (!hasState(tenant)) {
            return error(WebEndpointResponse.STATUS_NOT_FOUND, "no memory for that user");
        }
        return work.apply(tenant);
    }

    /** Whether the user has state, found without creating any; unknown storage (the application's own set): yes. */
    private boolean hasState(String tenant) {
        if (storage == null || users.openTenants().contains(tenant)) {
            return true;
        }
        return storage.hasState(tenant);
    }

    private static WebEndpointResponse<Map<String, Object>> error(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("error", message);
        return new WebEndpointResponse<>(body, status);
    }

    /** The global {@code memory_summary.md} as the memory tools read it (paths of this server taken out); "" when none. */
    private static String summary(MemoryEngine engine) {
        try {
            JsonNode read = JSON.readTree(engine.tools().call(MemoryTools.READ, "{\"path\":\"memory_summary.md\"}"));
            return read.path("content").asText("");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "";
        }
    }

    private static Optional<String> user(@Nullable String user) {
        return Optional.ofNullable(user).filter(u -> !u.isBlank());
    }

    private static String requireConversation(@Nullable String conversation) {
        if (conversation == null || conversation.isBlank()) {
            throw new IllegalArgumentException("forget needs the conversation's id (\"conversation\" in the body)");
        }
        return conversation;
    }

    private static String requireId(String action, @Nullable String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException(action + " needs the pending memory's id");
        }
        return id;
    }

    private static Map<String, Object> status(MemoryStatus status) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("lastPhase2Success", Objects.toString(status.lastPhase2Success().orElse(null), null));
        body.put("lastPhase2Failure", status.lastPhase2Failure().orElse(null));
        body.put("stage1Outputs", status.stage1Outputs());
        body.put("threadCounts", status.threadCounts());
        body.put("jobCounts", status.jobCounts());
        return body;
    }

    private static Map<String, Object> pending(PendingMemory memory) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", memory.id());
        body.put("kind", memory.kind());
        body.put("threadId", memory.threadId());
        body.put("text", memory.text());
        body.put("createdAt", memory.createdAt().toString());
        return body;
    }

    private static Map<String, Object> consolidation(Consolidation consolidation) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", consolidation.id());
        body.put("at", consolidation.at().toString());
        body.put("inputs", consolidation.inputs());
        body.put("threadIds", List.copyOf(consolidation.threadIds()));
        return body;
    }
}
