package dev.mnemo.internal.engine;

import dev.mnemo.MemoryTools;
import dev.mnemo.internal.read.DeveloperInstructions;
import dev.mnemo.internal.read.ServerPaths;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.internal.tools.LocalMemoryTools;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.internal.tools.ToolCallFacts;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.SecretRedactor;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The engine's read path: the developer instructions and the memory tools, each reading the
 * workspace's files after it has refreshed them, and both serving no memory while a forget waits
 * ({@link EngineForgetting#servingPaused()}), since the files may still hold the forgotten text.
 * Each build of the instructions and each memory tool call is told to the listeners as a memory
 * operation on the caller's thread ({@link ReadPathEvents}). The engine checks that it is open
 * before it asks.
 */
final class EngineReadPath {

    /** The tools that read the folder, which a forget still in progress closes as it empties the instructions. */
    private static final Set<String> READING_TOOLS = ToolCallFacts.READING_TOOLS;
    /** What they answer meanwhile, in the tools' error form. */
    static final String FORGET_IN_PROGRESS = "{\"error\":\"the memory folder is being updated after a forget;"
            + " it can be read again in a moment\"}";

    private final EngineParts parts;
    private final ConversationNotes notes;
    private final EngineForgetting forgets;
    private final Supplier<SecretRedactor> redactor;
    private final DeveloperInstructions instructions;
    private final ReadPathEvents events;
    /** Built by {@link #tools()} on first use: most engines build instructions and never call a tool. */
    private final AtomicReference<MemoryTools> tools = new AtomicReference<>();
    /** The tools before the refresh and path scrubbing: what approving a note writes with. */
    private final AtomicReference<LocalMemoryTools> localTools = new AtomicReference<>();

    /**
     * @param notes the note rules the local tools admit notes by
     * @param forgets whether serving memory waits for a forget
     * @param redactor what the local tools redact notes with, asked when they are made
     */
    EngineReadPath(EngineParts parts, ConversationNotes notes, EngineForgetting forgets,
            Supplier<SecretRedactor> redactor, MemoryEventListener listener) {
        this.parts = parts;
        this.events = new ReadPathEvents(listener, parts::storeLabel, parts.wallClock());
        this.notes = notes;
        this.forgets = forgets;
        this.redactor = redactor;
        this.instructions = new DeveloperInstructions(parts.memoryRoot(), parts.config(), tokenCounter(parts));
    }

    /** How this engine counts tokens: its extraction model's counter, the estimate without a model. */
    static TokenCounter tokenCounter(EngineParts parts) {
        return parts.extractionModel() == null ? TokenCounter.estimate() : parts.extractionModel().tokenCounter();
    }

    /** The developer instructions, in {@code projectKey}'s project when one is given; empty while a forget waits. */
    String developerInstructions(Optional<String> projectKey) {
        return built(projectKey, parts.config().dedicatedTools()).text();
    }

    /** The instructions that go with the tools; empty while a forget waits. */
    String instructionsForTools(Optional<String> projectKey) {
        return built(projectKey, true).text();
    }

    /**
     * The instructions for the tools ({@code tools}) or for the configured audience, with the files
     * they inject; nothing while a forget waits. Each build is a {@code search_memory} operation.
     */
    DeveloperInstructions.Built built(Optional<String> projectKey, boolean tools) {
        ReadPathEvents.Start start = events.start();
        DeveloperInstructions.Built built;
        try {
            if (forgets.servingPaused()) {
                built = DeveloperInstructions.Built.NONE;
            } else {
                parts.workspace().refresh();
                built = instructions.built(projectKey, tools);
            }
        } catch (RuntimeException e) {
            events.instructionsFailed(start, e);
            throw e;
        }
        events.instructions(start, built);
        return built;
    }

    /**
     * The memory tools, made on first use. Two threads asking at once may each make a set; they hold
     * no state of their own, and the first one stored is the one every caller gets.
     */
    MemoryTools tools() {
        MemoryTools made = tools.get();
        if (made == null) {
            tools.compareAndSet(null, refreshing(localTools()));
            made = tools.get();
        }
        return made;
    }

    /**
     * The local tools, made on first use; with {@code approval = "ask"} their notes wait in the
     * store for a person ({@link dev.mnemo.MemoryAdmin#approve}).
     */
    LocalMemoryTools localTools() {
        LocalMemoryTools made = localTools.get();
        if (made == null) {
            localTools.compareAndSet(null, new LocalMemoryTools(parts.memoryRoot(), parts.clock(), redactor.get(),
                    parts.workspace()::noteAdded, notes));
            made = localTools.get();
        }
        return made;
    }

    /**
     * The memory tools of one recorded conversation, in its project: each note names the
     * conversation, and waits for approval once {@code externalContext} says it saw external context.
     */
    ReadingTools toolsFor(Optional<String> project, String threadId, BooleanSupplier externalContext) {
        LocalMemoryTools bound = localTools().inConversation(threadId, externalContext);
        return refreshing(project.map(bound::inProject).orElse(bound));
    }

    /**
     * The memory tools, reading the workspace's files after it has refreshed them (the tools tell the
     * workspace of each note they add). Their results go to a model, possibly a hosted one: paths of
     * this machine are taken out ({@link ServerPaths}).
     */
    private ReadingTools refreshing(MemoryTools local) {
        return new ReadingTools(local, new ServerPaths(parts.memoryRoot()));
    }

    /**
     * The memory tools as the read path serves them: refreshed, scrubbed of this machine's paths,
     * closed to reads while a forget waits, and each call told to the listeners as a memory
     * operation on the caller's thread.
     */
    final class ReadingTools implements MemoryTools {
        private final MemoryTools local;
        private final ServerPaths serverPaths;

        private ReadingTools(MemoryTools local, ServerPaths serverPaths) {
            this.local = local;
            this.serverPaths = serverPaths;
        }

        /** One call's output and what it did. */
        record Call(String output, ToolCallFacts facts) {}

        @Override
        public List<ToolSpec> specs() {
            return local.specs();
        }

        @Override
        public String call(String toolName, String argumentsJson) {
            return callWithFacts(toolName, argumentsJson).output();
        }

        /** {@link #call}, with what the call did; the operation is told to the listeners before it returns. */
        Call callWithFacts(String toolName, String argumentsJson) {
            ReadPathEvents.Start start = events.start();
            String output;
            if (READING_TOOLS.contains(toolName) && forgets.servingPaused()) {
                output = FORGET_IN_PROGRESS; // the files may still hold the forgotten text, as the instructions
            } else {
                parts.workspace().refresh();
                output = serverPaths.scrub(local.call(toolName, argumentsJson));
            }
            ToolCallFacts facts = ToolCallFacts.of(String.valueOf(toolName), String.valueOf(argumentsJson), output);
            events.toolCall(start, facts, output);
            return new Call(output, facts);
        }

        /** This machine's paths taken out of {@code text}, as from the tools' output. */
        String scrub(String text) {
            return serverPaths.scrub(text);
        }

        @Override
        public ReadingTools inProject(String projectKey) {
            return refreshing(local.inProject(projectKey));
        }

        @Override
        public ReadingTools confinedToProject(String projectKey) {
            return refreshing(local.confinedToProject(projectKey));
        }
    }
}
