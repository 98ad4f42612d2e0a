package dev.mnemo.langchain4j;

import dev.langchain4j.service.AiServiceContext;
import dev.langchain4j.service.AiServices;
import java.lang.reflect.Field;
import java.util.function.Consumer;

/**
 * The builder {@code configure} returns: the application's own {@code AiServices}, same settings
 * (both write to the one {@link AiServiceContext}, so setting anything on either before or after
 * {@code configure} counts), whose {@link #build()} puts the {@link ServiceProxy} in front of the
 * service LangChain4j builds.
 *
 * <p>LangChain4j exposes a builder's service interface only through its protected {@code context}
 * field (the {@code @Internal} {@link AiServiceContext}), the same in 1.11 and 1.19; it is read once,
 * reflectively, when {@code configure} is called.
 */
final class MnemoAiServices<T> extends AiServices<T> {

    private final AiServices<T> builder;
    private final Class<T> type;
    private final ServiceMethods methods;
    private final Exchanges exchanges;
    private final Consumer<Object> conversationEnded;

    private MnemoAiServices(AiServiceContext context, AiServices<T> builder, Class<T> type, ServiceMethods methods,
            Exchanges exchanges, Consumer<Object> conversationEnded) {
        super(context);
        this.builder = builder;
        this.type = type;
        this.methods = methods;
        this.exchanges = exchanges;
        this.conversationEnded = conversationEnded;
    }

    /**
     * Reads the service interface of {@code builder} and checks it.
     *
     * @throws IllegalArgumentException when a method of the interface is refused (see {@link ServiceMethods#of})
     *     or the builder was configured already
     */
    static <T> MnemoAiServices<T> over(AiServices<T> builder, Exchanges exchanges, Consumer<Object> conversationEnded) {
        if (builder instanceof MnemoAiServices) {
            throw new IllegalArgumentException("this AiServices builder is the one configure(..) returned: configure it"
                    + " once");
        }
        AiServiceContext context = contextOf(builder);
        @SuppressWarnings("unchecked") // the context of an AiServices<T> is the context of T's interface
        Class<T> type = (Class<T>) context.aiServiceClass;
        return new MnemoAiServices<>(context, builder, type, ServiceMethods.of(type), exchanges, conversationEnded);
    }

    ServiceMethods methods() {
        return methods;
    }

    /** LangChain4j's service, behind the proxy that makes each call one exchange of its conversation. */
    @Override
    public T build() {
        return ServiceProxy.wrap(type, builder.build(), methods, exchanges, conversationEnded);
    }

    private static AiServiceContext contextOf(AiServices<?> builder) {
        try {
            Field field = AiServices.class.getDeclaredField("context");
            field.setAccessible(true);
            return (AiServiceContext) field.get(builder);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsupportedOperationException("configure(..) reads the service interface from the AiServices"
                    + " builder's context, which this LangChain4j version does not have where 1.11 to 1.19 do; use the"
                    + " hooks one by one (requestTransformer(), toolProvider(), citationGuardrail(), listeners())", e);
        }
    }
}
