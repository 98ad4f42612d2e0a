package dev.mnemo.springai;

import dev.mnemo.MemoryEngines;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.chat.client.ChatClientRequest;

/**
 * Says whose memory a request reads and records, for a {@link MnemoAdvisor} over
 * {@link MemoryEngines} (one memory per user). Empty means the request has no user: the advisor
 * then reads nothing and records nothing for it.
 *
 * <pre>{@code
 * @Bean
 * MnemoTenantResolver mnemoTenantResolver(CurrentUser currentUser) {
 *     return request -> Optional.ofNullable(currentUser.id());
 * }
 * }</pre>
 *
 * <p>Called once per request, on the thread that calls the {@code ChatClient} (or subscribes to its
 * stream), before the advisor moves any work to another thread: thread-bound context such as Spring
 * Security's {@code SecurityContextHolder} is still visible. The id should come from what the
 * server knows about the caller (its session, its token), never from text the client sent; a blank
 * id counts as none.
 */
@FunctionalInterface
public interface MnemoTenantResolver {

    /**
     * The user of {@code request}, or empty when it has none.
     *
     * @param request the request being advised
     * @return the user's id, or empty (blank counts as empty) when the request has no user
     */
    Optional<String> tenantId(ChatClientRequest request);

    /**
     * The advisor param {@link MnemoAdvisor#USER_ID}, set by the application's code per request:
     * {@code .advisors(a -> a.param(MnemoAdvisor.USER_ID, userId))}.
     *
     * @return a resolver reading the advisor param {@link MnemoAdvisor#USER_ID}; empty when it is missing or
     *     blank
     */
    static MnemoTenantResolver advisorParam() {
        return request -> MnemoAdvisor.param(request, MnemoAdvisor.USER_ID);
    }

    /**
     * This resolver's user, else {@code next}'s.
     *
     * @param next asked when this resolver finds no user or a blank one; not null
     * @return a resolver trying this one, then {@code next}
     */
    default MnemoTenantResolver orElse(MnemoTenantResolver next) {
        Objects.requireNonNull(next, "next");
        return request -> {
            Optional<String> user = tenantId(request).filter(id -> !id.isBlank());
            return user.isPresent() ? user : next.tenantId(request);
        };
    }
}
