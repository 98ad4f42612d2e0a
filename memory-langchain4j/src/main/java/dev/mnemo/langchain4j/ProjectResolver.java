package dev.mnemo.langchain4j;

import java.util.Optional;

/**
 * Says which project a conversation of an AI service is in: a workspace, a case, a customer
 * account, a repository. A conversation in a project is given that project's memory and the user's
 * global memory, never another project's, and what it teaches is filed under its project
 * ({@link dev.mnemo.SessionContext#inProject(String)}). Set it with
 * {@link MnemoLangChain4j#create(dev.mnemo.MemoryEngine, ProjectResolver)} or
 * {@link MnemoLangChain4j#create(dev.mnemo.MemoryEngines, TenantResolver, ProjectResolver)}:
 *
 * <pre>{@code
 * ProjectResolver fromOwnIdType = memoryId -> Optional.of(((ChatId) memoryId).workspace());
 * ProjectResolver fromRequest = memoryId -> Optional.ofNullable(CurrentWorkspace.get());
 * }</pre>
 *
 * <p>It is called where {@link TenantResolver} is: once per exchange, on the thread that calls the
 * service method, or where LangChain4j calls a hook used on its own. A conversation keeps the
 * project it was opened in: a call that names another project for a conversation that is still
 * open fails with {@link IllegalArgumentException} before anything of it is recorded.
 */
@FunctionalInterface
public interface ProjectResolver {

    /**
     * The project of this call's conversation.
     *
     * @param memoryId the service method's {@code @MemoryId} argument
     * @return the project key; empty (or blank) when the conversation has no project: it then sees
     *     the global memory only
     */
    Optional<String> projectOf(Object memoryId);

    /**
     * No conversation has a project: every one sees the global memory.
     *
     * @return a resolver that puts no conversation in a project
     */
    static ProjectResolver none() {
        return memoryId -> Optional.empty();
    }
}
