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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code mnemo} Actuator endpoint: what the memory holds and what waits for a decision, and
 * the decisions themselves.
 *
 * <ul>
 *   <li>Read ({@code GET /actuator/mnemo}): the pipeline's status, the global summary, the pending
 *       memories and the consolidation history.
 *   <li>Write ({@code POST /actuator/mnemo} with a JSON body): {@code {"action":"approve","id":…}},
 *       {@code {"action":"reject","id":…}} or {@code {"action":"consolidate"}} (Phase 1 and Phase 2
 *       now, past the success cooldown).
 * </ul>
 *
 * <p>In {@code mnemo.tenancy=per-user} every operation names its user ({@code ?user=…} or
 * {@code "user"} in the body) and sees that user's memory only. Like every Actuator endpoint it is
 * reachable only where the application exposes it ({@code management.endpoints.web.exposure.include})
 * and its security lets the caller in; it is not exposed by default.
 */
@Endpoint(id = "mnemo")
public class MnemoEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(MnemoEndpoint.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MemoryEngine shared;
    private final MemoryEngines users;

    /** Over one engine ({@code shared}) or one per user ({@code users}); exactly one is non-null. */
    MnemoEndpoint(@Nullable MemoryEngine shared, @Nullable MemoryEngines users) {
        if ((shared == null) == (users == null)) {
            throw new IllegalArgumentException("the mnemo endpoint needs either one MemoryEngine or MemoryEngines");
        }
        this.shared = shared;
        this.users = users;
    }

    /** Status, summary, pending memories and history of the memory ({@code user} in per-user tenancy). */
    @ReadOperation
    public Map<String, Object> memory(@Nullable String user) {
        return withEngine(user, engine -> {
            Map<String, Object> body = new LinkedHashMap<>();
            user(user).ifPresent(u -> body.put("user", u));
            body.put("status", status(engine.admin().status()));
            body.put("summary", summary(engine));
            body.put("pending", engine.admin().pending().stream().map(MnemoEndpoint::pending).toList());
            body.put("history", engine.admin().history().stream().map(MnemoEndpoint::consolidation).toList());
            return body;
        });
    }

    /**
     * Approves or rejects a pending memory, or consolidates now.
     *
     * @param action {@code approve}, {@code reject} or {@code consolidate}
     * @param id the pending id, for approve and reject
     * @param user the user, in per-user tenancy
     */
    @WriteOperation
    public Map<String, Object> decide(String action, @Nullable String id, @Nullable String user) {
        return withEngine(user, engine -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("action", action);
            switch (action) {
                case "approve" -> engine.admin().approve(requireId(action, id));
                case "reject" -> engine.admin().reject(requireId(action, id));
                case "consolidate" -> {
                    Phase2Report report = engine.admin().consolidateNow();
                    body.put("outcome", report.outcome().name());
                    report.failure().ifPresent(failure -> body.put("failure", failure));
                }
                default -> throw new IllegalArgumentException(
                        "action must be approve, reject or consolidate, was " + action);
            }
            LOG.info("mnemo endpoint: {}{}{}", action, id == null ? "" : " " + id,
                    user(user).map(u -> " for user " + u).orElse(""));
            body.put("pending", engine.admin().pending().size());
            return body;
        });
    }

    /** Runs {@code work} on the caller's engine; a bad request (unknown id, missing user) is a 400. */
    private <T> T withEngine(@Nullable String user, Function<MemoryEngine, T> work) {
        try {
            return onEngine(user, work);
        } catch (IllegalArgumentException e) {
            throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
        }
    }

    private <T> T onEngine(@Nullable String user, Function<MemoryEngine, T> work) {
        if (shared != null) {
            if (user(user).isPresent()) {
                throw new IllegalArgumentException("mnemo.tenancy is shared: there is no per-user memory to name");
            }
            return work.apply(shared);
        }
        String tenant = user(user).orElseThrow(() -> new IllegalArgumentException(
                "mnemo.tenancy is per-user: name the user (?user=… or \"user\" in the body)"));
        try (MemoryEngines.Lease lease = users.lease(tenant)) {
            return work.apply(lease.engine());
        }
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
