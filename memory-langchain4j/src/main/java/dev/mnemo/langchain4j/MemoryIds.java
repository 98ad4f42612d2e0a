package dev.mnemo.langchain4j;

import java.lang.reflect.Method;

/**
 * The Mnemo conversation id of a LangChain4j memory id: its {@code toString()}, refused when that
 * would merge conversations or change between calls.
 */
final class MemoryIds {

    /**
     * The memory id LangChain4j gives every call of a method without a {@code @MemoryId} parameter
     * ({@code ChatMemoryService.DEFAULT}): one conversation for every user of the service.
     */
    static final String LANGCHAIN4J_DEFAULT = "default";

    private MemoryIds() {}

    /**
     * The conversation id of {@code memoryId}.
     *
     * @throws IllegalArgumentException when the id is LangChain4j's {@code "default"}, blank, or of a
     *     type whose {@code toString()} is not stable (the identity hash of {@code Object}, a lambda,
     *     an array)
     */
    static String conversationId(Object memoryId) {
        if (memoryId == null) {
            throw new IllegalArgumentException("the memory id is null: give the service method a non-null @MemoryId");
        }
        Class<?> type = memoryId.getClass();
        if (!hasStableToString(type)) {
            throw new IllegalArgumentException("a memory id of type " + type.getName() + " has no stable toString()"
                    + " (it would be Object's identity hash or a lambda's name, different for equal ids and after a"
                    + " restart): Mnemo names the conversation by toString(); use a String, a UUID, a record, or a type"
                    + " with its own toString()");
        }
        String id = memoryId.toString();
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("memory id " + type.getName() + " has a blank toString(); Mnemo names"
                    + " the conversation by it");
        }
        if (id.equals(LANGCHAIN4J_DEFAULT)) {
            throw new IllegalArgumentException("memory id '" + LANGCHAIN4J_DEFAULT + "' is the one LangChain4j gives"
                    + " every call of a method without a @MemoryId parameter: every user would share one conversation"
                    + " (one memory, one rollout that never goes idle and so is never extracted). Give the service"
                    + " method a @MemoryId parameter with an id per conversation");
        }
        return id;
    }

    /** Whether instances of {@code type} name themselves by value: a {@code toString()} of their own. */
    static boolean hasStableToString(Class<?> type) {
        if (type.isArray() || type.isHidden() || type.isSynthetic()) {
            return false;
        }
        try {
            Method toString = type.getMethod("toString");
            return toString.getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("every class has toString()", e);
        }
    }
}
