package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.guardrail.OutputGuardrails;
import dev.langchain4j.service.memory.ChatMemoryAccess;
import dev.langchain4j.spi.services.TokenStreamAdapter;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code configure} needs to know of an AI service interface, read once: each method's
 * {@code @MemoryId} parameter and what it returns, and whether the citation guardrail can be used.
 * Refuses, naming the method, an interface that would merge users' conversations or show citation
 * markup to a user.
 *
 * @param plans the service methods LangChain4j implements (not default methods, not
 *     {@code ChatMemoryAccess}'s)
 * @param citationGuardrail whether {@code configure} sets the citation guardrail: not when a method
 *     streams, since LangChain4j holds every token of every streamed answer back until output
 *     guardrails ran; the service proxy then strips the text answers itself
 */
record ServiceMethods(Map<Method, Plan> plans, boolean citationGuardrail) {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceMethods.class);

    /** What a method returns, as far as citations go. */
    enum Kind {
        /** A {@code TokenStream}: wrapped into a visible token stream. */
        STREAM,
        /** {@code String}, {@code AiMessage}, {@code ChatResponse}, {@code Result<String>}: text the proxy can strip. */
        TEXT,
        /** Nothing. */
        VOID,
        /** A structured object (a primitive, an enum, a list...): only a guardrail can strip its text before parsing. */
        STRUCTURED
    }

    /**
     * One service method.
     *
     * @param memoryIdIndex the position of its {@code @MemoryId} parameter
     * @param stripsAnswer whether the proxy strips citation markup from what it returns (no guardrail runs for it)
     */
    record Plan(int memoryIdIndex, Kind kind, boolean stripsAnswer) {}

    /**
     * Reads {@code type}.
     *
     * @throws IllegalArgumentException naming the method, when one has no {@code @MemoryId}
     *     parameter, one whose type has no stable {@code toString()}, or a return type whose
     *     citations could not be kept from the user
     */
    static ServiceMethods of(Class<?> type) {
        List<Method> methods = new ArrayList<>();
        for (Method method : type.getMethods()) {
            Class<?> declaring = method.getDeclaringClass();
            if (!method.isDefault() && !Modifier.isStatic(method.getModifiers()) && declaring != ChatMemoryAccess.class
                    && declaring != Object.class) {
                methods.add(method);
            }
        }
        List<TokenStreamAdapter> adapters = new ArrayList<>();
        ServiceLoader.load(TokenStreamAdapter.class, type.getClassLoader()).forEach(adapters::add);
        boolean streams = false;
        for (Method method : methods) {
            Kind kind = kind(method, adapters);
            streams |= kind == Kind.STREAM;
        }
        boolean guardrail = !streams;
        Map<Method, Plan> plans = new HashMap<>();
        for (Method method : methods) {
            Kind kind = kind(method, adapters);
            boolean ownGuardrails = method.isAnnotationPresent(OutputGuardrails.class)
                    || type.isAnnotationPresent(OutputGuardrails.class);
            boolean stripped = kind == Kind.TEXT && (!guardrail || ownGuardrails);
            if (kind == Kind.STRUCTURED && !guardrail) {
                throw new IllegalArgumentException(name(method) + " returns "
                        + method.getGenericReturnType().getTypeName() + " in a service whose other methods stream:"
                        + " Mnemo strips citations from a structured answer with"
                        + " an output guardrail, and LangChain4j would then hold every streamed answer back until it is"
                        + " complete. Put the streaming methods and the structured ones in separate interfaces");
            }
            if (kind == Kind.STRUCTURED && ownGuardrails) {
                LOG.warn("{} has its own @OutputGuardrails, which LangChain4j applies instead of Mnemo's citation"
                        + " guardrail: a citation the model appends to its structured answer is not removed",
                        name(method));
            }
            plans.put(method, new Plan(memoryIdIndex(method), kind, stripped));
        }
        return new ServiceMethods(Map.copyOf(plans), guardrail);
    }

    private static int memoryIdIndex(Method method) {
        Parameter[] parameters = method.getParameters();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].isAnnotationPresent(MemoryId.class)) {
                Class<?> idType = parameters[i].getType();
                if (!idType.isInterface() && !idType.isPrimitive() && idType != Object.class
                        && !MemoryIds.hasStableToString(idType)) {
                    throw new IllegalArgumentException(name(method) + ": its @MemoryId type " + idType.getName()
                            + " has no toString() of its own, so equal ids would name different conversations (Object's"
                            + " identity hash); Mnemo names the conversation by toString(). Use a String, a UUID, a"
                            + " record, or give the type a toString()");
                }
                return i;
            }
        }
        throw new IllegalArgumentException(name(method) + " has no @MemoryId parameter: LangChain4j would give every"
                + " call the memory id \"" + MemoryIds.LANGCHAIN4J_DEFAULT + "\", so every user would share one"
                + " conversation, one memory and one rollout that never goes idle and so is never extracted. Add a"
                + " @MemoryId parameter with an id per conversation (and a chatMemoryProvider)");
    }

    private static Kind kind(Method method, List<TokenStreamAdapter> adapters) {
        Class<?> raw = method.getReturnType();
        Type generic = method.getGenericReturnType();
        if (raw == TokenStream.class) {
            return Kind.STREAM;
        }
        for (TokenStreamAdapter adapter : adapters) {
            if (adapter.canAdaptTokenStreamTo(generic)) {
                throw new IllegalArgumentException(name(method) + " returns " + generic.getTypeName() + ", which"
                        + " LangChain4j streams through " + adapter.getClass().getName() + ": Mnemo cannot keep the"
                        + " citation markup out of it. Return TokenStream, whose tokens Mnemo filters");
            }
        }
        if (raw == void.class) {
            return Kind.VOID;
        }
        if (raw == String.class || raw == AiMessage.class || raw == ChatResponse.class) {
            return Kind.TEXT;
        }
        if (raw == Result.class && generic instanceof ParameterizedType p
                && p.getActualTypeArguments()[0] == String.class) {
            return Kind.TEXT;
        }
        return Kind.STRUCTURED;
    }

    private static String name(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}
