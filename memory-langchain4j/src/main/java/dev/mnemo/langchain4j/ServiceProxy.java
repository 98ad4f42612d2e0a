package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.memory.ChatMemoryAccess;
import dev.mnemo.Citations;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Consumer;

/**
 * The AI service {@code configure}'s builder returns: LangChain4j's own service behind a proxy that
 * makes each call one exchange of its conversation. Before LangChain4j sees the call it claims the
 * conversation ({@code MemorySession.beginTurn()}), so a second call on a busy conversation is
 * refused before anything of it is recorded or reaches the model; it releases the claim when the
 * answer is complete. A {@code TokenStream} comes back as a visible token stream; text answers of a
 * service without the citation guardrail come back stripped. An answer that carries an
 * {@code AiMessage} ({@code Result}, {@code ChatResponse}, {@code AiMessage}) comes back with the
 * turn's receipt among the message's attributes. {@code ChatMemoryAccess.evictChatMemory}
 * also ends the Mnemo conversation.
 */
final class ServiceProxy implements InvocationHandler {

    private final Object service;
    /** LangChain4j's own handler when its service is a JDK proxy (always, today): called without access checks. */
    private final InvocationHandler serviceHandler;
    private final ServiceMethods methods;
    private final Exchanges exchanges;
    private final Consumer<Object> conversationEnded;

    private ServiceProxy(Object service, ServiceMethods methods, Exchanges exchanges,
            Consumer<Object> conversationEnded) {
        this.service = service;
        this.serviceHandler = Proxy.isProxyClass(service.getClass()) ? Proxy.getInvocationHandler(service) : null;
        this.methods = methods;
        this.exchanges = exchanges;
        this.conversationEnded = conversationEnded;
    }

    static <T> T wrap(Class<T> type, T service, ServiceMethods methods, Exchanges exchanges,
            Consumer<Object> conversationEnded) {
        Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                new ServiceProxy(service, methods, exchanges, conversationEnded));
        return type.cast(proxy);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "Mnemo(" + service + ")";
            };
        }
        if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args); // its calls come back through this proxy
        }
        ServiceMethods.Plan plan = methods.plans().get(method);
        if (plan == null) {
            Object result = call(method, args);
            if (method.getDeclaringClass() == ChatMemoryAccess.class && method.getName().equals("evictChatMemory")) {
                conversationEnded.accept(args[0]);
            }
            return result;
        }
        Exchange exchange = exchanges.begin(args[plan.memoryIdIndex()], Exchange.Owner.PROXY);
        boolean streamEndsIt = false;
        try (Exchanges.Scope here = exchanges.enter(exchange)) {
            Object result = call(method, args);
            if (plan.kind() == ServiceMethods.Kind.STREAM) {
                streamEndsIt = true;
                return new VisibleTokenStream((TokenStream) result, exchange, exchanges);
            }
            Object answer = plan.stripsAnswer() ? visible(result) : result;
            return exchange.receipt().map(receipt -> Receipts.attach(answer, receipt)).orElse(answer);
        } finally {
            if (!streamEndsIt) {
                exchange.end();
            }
        }
    }

    private Object call(Method method, Object[] args) throws Throwable {
        if (serviceHandler != null) {
            return serviceHandler.invoke(service, method, args);
        }
        try {
            method.setAccessible(true);
            return method.invoke(service, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** A text answer without its citation markup (recorded and counted by the completed listener). */
    static Object visible(Object answer) {
        if (answer instanceof String text) {
            return Citations.strip(text).visibleText();
        }
        if (answer instanceof AiMessage message) {
            return visible(message);
        }
        if (answer instanceof ChatResponse response) {
            return visible(response);
        }
        if (answer instanceof Result<?> result) {
            Object content = result.content() instanceof String text ? Citations.strip(text).visibleText()
                    : result.content();
            return Result.builder().content(content)
                    .tokenUsage(result.tokenUsage()).sources(result.sources()).finishReason(result.finishReason())
                    .toolExecutions(result.toolExecutions()).intermediateResponses(result.intermediateResponses())
                    .finalResponse(result.finalResponse() == null ? null : visible(result.finalResponse())).build();
        }
        return answer;
    }

    private static AiMessage visible(AiMessage message) {
        return message.text() == null ? message : message.withText(Citations.strip(message.text()).visibleText());
    }

    private static ChatResponse visible(ChatResponse response) {
        return response.toBuilder().aiMessage(visible(response.aiMessage())).build();
    }
}
