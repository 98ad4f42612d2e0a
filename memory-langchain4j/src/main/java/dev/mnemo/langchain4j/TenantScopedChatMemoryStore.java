package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemo.TenantScopedId;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A LangChain4j {@link ChatMemoryStore} that keeps each tenant's short-term chat history apart,
 * whatever memory ids the tenants pick. LangChain4j keys a {@code ChatMemory}'s messages by the
 * memory id alone, so over a plain store bob calling with alice's id reads and extends alice's
 * history. This decorator hands the store it wraps a {@link Key} of the tenant and the memory id
 * instead: two tenants with the same id never share messages, and one tenant's ids keep working as
 * before. Get one from {@link MnemoLangChain4j#chatMemoryStore(ChatMemoryStore)}, which finds the
 * tenant of each read and write the way Mnemo's hooks find it (the exchange of the call running on
 * the thread, else the application's {@link TenantResolver}):
 *
 * <pre>{@code
 * ChatMemoryStore history = mnemo.chatMemoryStore(new InMemoryChatMemoryStore()); // or your persistent store
 * AiServices.builder(Assistant.class)
 *         .chatMemoryProvider(id -> MessageWindowChatMemory.builder().id(id).maxMessages(20)
 *                 .chatMemoryStore(history).build())
 * }</pre>
 *
 * <p>A read or write whose tenant cannot be found (the resolver answers {@code null} or blank) is
 * refused with {@link IllegalStateException}: the store never falls back to the bare id, which
 * would share that history between every caller without a tenant. Over
 * {@link MnemoLangChain4j#create(dev.mnemo.MemoryEngine)}, where every caller shares one memory,
 * the tenant is the empty string.
 */
public final class TenantScopedChatMemoryStore implements ChatMemoryStore {

    /**
     * What the wrapped store is given as the memory id: the tenant and the application's own id.
     * Equal when both parts are equal. Its {@link #toString()}, which stores that persist by text use
     * as their key, is {@code <length of tenant>:<tenant>:<memory id>}: no two pairs share one, since
     * the length says where the tenant ends, and {@link #parse(String)} reads it back.
     *
     * @param tenant the tenant the read or write was made for
     * @param memoryId the application's memory id, as LangChain4j handed it
     */
    public record Key(String tenant, Object memoryId) {

        /**
         * Checks both parts are given.
         *
         * @param tenant the tenant the read or write was made for; not null
         * @param memoryId the application's memory id, as LangChain4j handed it; not null
         * @throws NullPointerException when either part is null
         */
        public Key {
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(memoryId, "memoryId");
        }

        /**
         * Reads a key's text back: the tenant and the memory id's {@code toString()}.
         *
         * @param text a key's text, as {@link #toString()} writes it
         * @return the key the text was written from
         * @throws IllegalArgumentException when {@code text} is not a key's text
         */
        public static Key parse(String text) {
            TenantScopedId id = TenantScopedId.parse(text);
            return new Key(id.tenant(), id.id());
        }

        @Override
        public String toString() {
            return TenantScopedId.prefix(tenant) + memoryId;
        }
    }

    private final ChatMemoryStore delegate;
    private final Function<Object, String> tenantOf;

    TenantScopedChatMemoryStore(ChatMemoryStore delegate, Function<Object, String> tenantOf) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.tenantOf = tenantOf;
    }

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        return delegate.getMessages(key(memoryId));
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        delegate.updateMessages(key(memoryId), messages);
    }

    @Override
    public void deleteMessages(Object memoryId) {
        delegate.deleteMessages(key(memoryId));
    }

    private Key key(Object memoryId) {
        Objects.requireNonNull(memoryId, "memoryId");
        if (memoryId instanceof Key key) {
            return key; // already scoped (a store wrapped twice)
        }
        String tenant = tenantOf.apply(memoryId);
        if (tenant == null) {
            throw new IllegalStateException("no tenant for chat memory '" + memoryId + "' on this thread: the"
                    + " tenant-scoped chat memory store refuses to read or write history it could not tell apart from"
                    + " other callers'. Make the TenantResolver answer for this call, or give callers without a tenant"
                    + " a chat memory of their own");
        }
        return new Key(tenant, memoryId);
    }
}
