package dev.mnemo.internal.agent;

import dev.mnemo.internal.read.ServerPaths;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentRequest;
import dev.mnemo.spi.ConsolidationAgentResult;
import dev.mnemo.spi.MemoryEventListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link ConsolidationAgent}: it gives the consolidation prompt to the model together
 * with seven file tools confined to the memory folder (see {@link AgentTools}), runs every tool
 * call the model makes, sends the results back, and repeats until the model answers without
 * calling a tool.
 *
 * <p>The run fails, with a reason and the tokens spent so far, when the model throws a
 * {@link ModelException}, when the step budget (model turns) is used up, or when the request's
 * timeout has passed; the timeout is read from the injected {@link Clock} between turns, so a
 * single model call is bounded by the model client's own timeout. An interrupted thread also ends
 * the run between turns (the interrupt flag is left set). A model that calls an unknown
 * tool or writes bad arguments gets a JSON error back and the loop goes on.
 */
public final class ToolLoopConsolidationAgent implements ConsolidationAgent {

    /** Model turns one run may take unless the package-private constructor says otherwise. */
    static final int DEFAULT_STEP_BUDGET = 200;

    /** Metadata tag every request of this agent carries. */
    static final String REQUEST_KIND_KEY = "request_kind";
    static final String REQUEST_KIND = "memory_consolidation";

    static final String INSTRUCTIONS = loadInstructions();

    private static final Logger LOG = LoggerFactory.getLogger(ToolLoopConsolidationAgent.class);

    private final LanguageModel model;
    private final Clock clock;
    private final int stepBudget;
    private final MemoryEventListener listener;

    public ToolLoopConsolidationAgent(LanguageModel model, Clock clock) {
        this(model, clock, new MemoryEventListener() {});
    }

    /** An agent that tells {@code listener} of each tool it runs (the engine's thread logs hear them). */
    public ToolLoopConsolidationAgent(LanguageModel model, Clock clock, MemoryEventListener listener) {
        this(model, clock, DEFAULT_STEP_BUDGET, listener);
    }

    ToolLoopConsolidationAgent(LanguageModel model, Clock clock, int stepBudget) {
        this(model, clock, stepBudget, new MemoryEventListener() {});
    }

    private ToolLoopConsolidationAgent(LanguageModel model, Clock clock, int stepBudget, MemoryEventListener listener) {
        this.model = Objects.requireNonNull(model, "model");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.listener = Objects.requireNonNull(listener, "listener");
        if (stepBudget < 1) {
            throw new IllegalArgumentException("stepBudget must be at least 1, was " + stepBudget);
        }
        this.stepBudget = stepBudget;
    }

    @Override
    public ConsolidationAgentResult run(ConsolidationAgentRequest request) {
        Objects.requireNonNull(request, "request");
        Instant deadline = deadline(clock.instant(), request.timeout());
        AgentTools tools;
        try {
            tools = new AgentTools(request.memoryRoot());
        } catch (IOException e) {
            LOG.warn("consolidation agent cannot start: memory root {} is unusable: {}", request.memoryRoot(), e.toString());
            return ConsolidationAgentResult.failed("memory root " + request.memoryRoot() + " is unusable: " + e,
                    TokenUsage.ZERO);
        }
        LOG.info("consolidation agent starting in {} with model '{}', at most {} steps, timeout {}",
                tools.root(), request.model(), stepBudget, request.timeout());
        // What the provider receives never names a path of this machine: the memory folder is '.', the
        // rest of the home <mnemo-home> (raw_memories.md and the recaps name each rollout_path), and
        // what the model writes back has the home restored, so files on disk keep their paths.
        ServerPaths serverPaths = new ServerPaths(request.memoryRoot());
        ServerPaths realPaths = new ServerPaths(tools.root());
        UnaryOperator<String> scrub = text -> realPaths.scrub(serverPaths.scrub(text));
        List<ModelMessage> conversation = new ArrayList<>();
        conversation.add(ModelMessage.user(scrub.apply(request.prompt())));
        TokenUsage usage = TokenUsage.ZERO;
        int toolCallsRun = 0;
        for (int step = 1; step <= stepBudget; step++) {
            if (Thread.currentThread().isInterrupted()) {
                return fail("consolidation agent was interrupted after " + (step - 1) + " steps", usage);
            }
            if (!clock.instant().isBefore(deadline)) {
                return fail("consolidation agent ran past its timeout of " + request.timeout() + " after " + (step - 1)
                        + " steps", usage);
            }
            ModelResponse response;
            try {
                response = model.respond(requestFor(request, tools, conversation));
            } catch (ModelException e) {
                return fail("model request failed at step " + step + " (" + e.reason() + "): " + e.getMessage(), usage);
            }
            usage = usage.plus(response.usage());
            if (response.toolCalls().isEmpty()) {
                LOG.info("consolidation agent finished after {} steps and {} tool calls (finish reason {}, {} tokens)",
                        step, toolCallsRun, response.finishReason(), usage.totalTokens());
                return ConsolidationAgentResult.completed(usage);
            }
            conversation.add(ModelMessage.assistant(response.text(), response.toolCalls()));
            for (ToolCall call : response.toolCalls()) {
                AgentTools.Ran ran = tools.runReporting(new ToolCall(call.id(), call.name(),
                        serverPaths.restore(call.argumentsJson(), ToolLoopConsolidationAgent::jsonEscape)));
                listener.consolidationToolCalled(call.name(), ran.target(), ran.error());
                conversation.add(ModelMessage.tool(call.id(), scrub.apply(ran.json())));
                toolCallsRun++;
            }
        }
        return fail("consolidation agent used its whole budget of " + stepBudget + " steps without finishing", usage);
    }

    /** {@code text} as it may stand inside a JSON string. */
    private static String jsonEscape(String text) {
        String quoted;
        try {
            quoted = JSON_WRITER.writeValueAsString(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a string could not be written as JSON", e);
        }
        return quoted.substring(1, quoted.length() - 1);
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON_WRITER =
            new com.fasterxml.jackson.databind.ObjectMapper();

    /** {@code start + timeout}, or the end of time for a timeout too long to add. */
    private static Instant deadline(Instant start, Duration timeout) {
        try {
            return start.plus(timeout);
        } catch (DateTimeException | ArithmeticException tooFar) {
            return Instant.MAX;
        }
    }

    private static ModelRequest requestFor(ConsolidationAgentRequest request, AgentTools tools,
            List<ModelMessage> conversation) {
        return ModelRequest.builder()
                .model(request.model())
                .instructions(INSTRUCTIONS)
                .messages(conversation)
                .tools(tools.specs())
                .reasoningEffort(ReasoningEffort.MEDIUM)
                .metadata(REQUEST_KIND_KEY, REQUEST_KIND)
                .build();
    }

    private static ConsolidationAgentResult fail(String reason, TokenUsage usage) {
        LOG.warn("{} ({} tokens spent)", reason, usage.totalTokens());
        return ConsolidationAgentResult.failed(reason, usage);
    }

    private static String loadInstructions() {
        String name = "consolidation_agent_instructions.md";
        try (InputStream in = ToolLoopConsolidationAgent.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing from the memory-core jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + name, e);
        }
    }
}
