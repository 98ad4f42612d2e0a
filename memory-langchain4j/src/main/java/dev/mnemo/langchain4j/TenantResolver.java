package dev.mnemo.langchain4j;

/**
 * Says whose memory a call of an AI service reads and records: the tenant (a user, a team, a
 * workspace) whose engine {@link MnemoLangChain4j#create(dev.mnemo.MemoryEngines, TenantResolver)}
 * takes from its {@code MemoryEngines}. The application answers from what it trusts, typically the
 * user it authenticated for the request:
 *
 * <pre>{@code
 * TenantResolver fromRequest = memoryId -> CurrentUser.get().id();        // the application's request scope
 * TenantResolver fromOwnIdType = memoryId -> ((ChatId) memoryId).userId(); // an id type the server builds
 * }</pre>
 *
 * <p>Never derive the tenant from text the client sent, such as a prefix of a memory id the client
 * chose: a user could then name another user's tenant and read and write that user's memory.
 *
 * <p>It is called when an exchange begins (one call of a service method, streamed or not), on the
 * thread that calls the service method, before anything is recorded; every hook of that exchange,
 * on whatever thread LangChain4j runs it, then uses the same tenant. A hook that finds no exchange
 * of its own call on its thread or invocation (a hook used on its own, without
 * {@link MnemoLangChain4j#configure} or {@link MnemoLangChain4j#listeners()}; the first request of a
 * call the listeners alone claimed; a read or write of the
 * {@linkplain MnemoLangChain4j#chatMemoryStore tenant-scoped chat memory}) calls it where
 * LangChain4j calls that hook, and only ever joins a running exchange of the tenant it answers.
 * {@link MnemoLangChain4j#endConversation} calls it on its caller's thread.
 */
@FunctionalInterface
public interface TenantResolver {

    /**
     * The tenant of this call.
     *
     * @param memoryId the service method's {@code @MemoryId} argument
     * @return the tenant id; {@code null} or blank when the call has no tenant (no signed-in user,
     *     say): the call then goes to the model without memory, and nothing of it is recorded
     */
    String tenantOf(Object memoryId);
}
