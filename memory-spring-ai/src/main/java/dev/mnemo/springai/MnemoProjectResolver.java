package dev.mnemo.springai;

import dev.mnemo.SessionContext;
import java.util.Optional;
import org.springframework.ai.chat.client.ChatClientRequest;

/**
 * Says which project a request's conversation is in, for a {@link MnemoAdvisor}: a workspace, a
 * case, a customer account, a repository. A conversation in a project is given that project's
 * memory and the user's global memory, never another project's, and what it teaches is filed under
 * its project ({@link SessionContext#inProject(String)}). Empty means the request has no project:
 * it sees the global memory only.
 *
 * <pre>{@code
 * @Bean
 * MnemoProjectResolver mnemoProjectResolver(CurrentWorkspace workspace) {
 *     return request -> Optional.ofNullable(workspace.id());
 * }
 * }</pre>
 *
 * <p>The advisor param {@link MnemoAdvisor#PROJECT}, set by the application's code per request,
 * wins over a resolver: the resolver is asked only for requests without it, once per request, on
 * the thread that calls the {@code ChatClient} (or subscribes to its stream), so thread-bound
 * context is still visible. A blank key counts as none.
 */
@FunctionalInterface
public interface MnemoProjectResolver {

    /**
     * The project key of {@code request} (one without the advisor param), or empty when it has none.
     *
     * @param request the request being advised, without the advisor param {@link MnemoAdvisor#PROJECT}
     * @return the project key, or empty (the request then sees the global memory)
     */
    Optional<String> projectKey(ChatClientRequest request);
}
