package dev.mnemo.internal.extract;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase1Preview;
import dev.mnemo.ThreadInfo;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.OutputSchema;
import dev.mnemo.llm.ReasoningEffort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * How a Phase 1 extraction request is built: the input budget, the overhead of the templates, and
 * the request itself. Shared by {@link Phase1Job} and the dry-run preview so both send the same bytes.
 */
public final class Phase1Request {

    private Phase1Request() {}

    /** 70 % of the model's context window (150,000 tokens when unknown or no model), at 4 bytes a token. */
    public static long budgetBytes(LanguageModel model) {
        int window = model == null ? 0 : model.contextWindowTokens().orElse(0);
        long tokens = window > 0 ? Math.max(1, (long) window * Phase1Runner.CONTEXT_WINDOW_PERCENT / 100)
                : Phase1Runner.DEFAULT_ROLLOUT_TOKEN_LIMIT;
        return tokens * Phase1Runner.BYTES_PER_TOKEN;
    }

    /** Bytes the system prompt and the input template take besides the rendered rollout. */
    static long overheadBytes(String rolloutPath, String cwd, String threadGoal) {
        return Phase1Prompts.INPUT_TEMPLATE_BYTES + Phase1Prompts.SYSTEM_BYTES
                + Utf8Text.size(rolloutPath) + Utf8Text.size(cwd) + Utf8Text.size(threadGoal);
    }

    /** The request for a conversation that starts with the input message. */
    static ModelRequest of(String model, List<ModelMessage> conversation) {
        return ModelRequest.builder()
                .model(model)
                .instructions(Phase1Prompts.SYSTEM)
                .messages(conversation)
                .outputSchema(new OutputSchema(Stage1Reply.SCHEMA_NAME, Stage1Reply.JSON_SCHEMA, true))
                .reasoningEffort(ReasoningEffort.LOW)
                .metadata("request_kind", "memory")
                .build();
    }

    /**
     * The first request Phase 1 would send for {@code thread}: its rollout rendered (filtered,
     * redacted, fitted into {@code budgetBytes} minus the templates) into the input template, with
     * {@code threadGoal} ({@link GoalContext}) as its context.
     *
     * @throws java.io.UncheckedIOException when the rollout cannot be read; the message names it
     */
    public static Phase1Preview.FirstRequest preview(ThreadInfo thread, RolloutInput rollouts, long budgetBytes,
            MemoriesConfig config, String threadGoal) {
        Path rolloutPath = thread.rolloutPath();
        String rolloutForModel = rollouts.pathForModel(thread);
        String cwd = thread.cwd().map(Path::toString).orElse("");
        long room = Math.max(1, budgetBytes - overheadBytes(rolloutForModel, cwd, threadGoal));
        RenderedRollout rendered;
        try {
            rendered = rollouts.render(thread, room);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rollout " + rolloutPath + ": " + e.getMessage(), e);
        }
        String input = Phase1Prompts.input(rolloutForModel, cwd, threadGoal, rendered.text());
        ModelRequest request = of(config.extractModel().orElse(""), List.of(ModelMessage.user(input)));
        return new Phase1Preview.FirstRequest(thread.id(), request, budgetBytes, rendered.originalBytes(),
                rendered.truncated(), rendered.itemsKept(), rendered.itemsDropped());
    }
}
