package dev.mnemo.internal.engine;

import dev.mnemo.Approval;
import dev.mnemo.internal.events.BackgroundOperations;
import dev.mnemo.internal.read.AdHocNoteFiles;
import dev.mnemo.internal.sandbox.ToolFailure;
import dev.mnemo.internal.tools.LocalMemoryTools;
import dev.mnemo.spi.MemoryOperation;
import dev.mnemo.spi.PendingNote;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's rules for ad-hoc notes, tied to the conversation that asked for each one:
 *
 * <ol>
 *   <li>A note a person rejected is refused when the same conversation asks for it again
 *       (matched by {@link AdHocNoteFiles#fingerprint}; the store keeps the fingerprint, not the text),
 *       and Phase 1 leaves lines repeating it out of that conversation's memory.
 *   <li>A note waits for a person when {@code approval = "ask"}, and also, whatever
 *       {@code approval} says, when its conversation had seen external context: a web page or a
 *       tool's output may have written it.
 *   <li>Otherwise it is written at once, its header naming the conversation.
 *   <li>Forgetting a conversation (delete, pollute, disable) removes its notes, pending and written.
 * </ol>
 */
final class ConversationNotes implements LocalMemoryTools.NoteGate {

    private static final Logger LOG = LoggerFactory.getLogger(ConversationNotes.class);

    /** The source of the {@code create_memory} an approved note's write is. */
    static final String APPROVAL = "approval";

    private final EngineParts parts;
    private final Supplier<LocalMemoryTools> tools;
    private final BackgroundOperations operations;

    /** @param operations tells the listeners of an approved note's write */
    ConversationNotes(EngineParts parts, Supplier<LocalMemoryTools> tools, BackgroundOperations operations) {
        this.parts = parts;
        this.tools = tools;
        this.operations = operations;
    }

    @Override
    public Optional<String> admit(LocalMemoryTools.NoteRequest request) {
        // 1. Rejected before in this conversation: refused. (A note asked for outside any conversation
        // is a person's own; it is not checked, so it needs no store when it is written at once.)
        String source = request.conversation().orElse("");
        if (request.conversation().isPresent() && isRejected(source, request.note())) {
            LOG.info("Ad-hoc note {} refused: a person rejected the same note from {}", request.filename(),
                    source.isEmpty() ? "outside any conversation" : "conversation " + source);
            throw new ToolFailure("the user rejected this note before; it is not recorded. Do not ask to record it"
                    + " again.");
        }
        // 2. Held for a person, or 3. written at once by the tools.
        boolean ask = parts.config().approval() == Approval.ASK;
        if (!ask && !request.externalContext()) {
            return Optional.empty();
        }
        String id = UUID.randomUUID().toString();
        try {
            parts.store().addPendingNote(new PendingNote(id, request.filename(), request.projectSlug(), request.note(),
                    request.conversation(), parts.clock().instant(), request.externalContext()));
        } catch (UnsupportedOperationException e) {
            if (ask) {
                throw e;
            }
            LOG.warn("Ad-hoc note {} of conversation {} not kept: the conversation saw external context and {}",
                    request.filename(), source, e.getMessage());
            throw new ToolFailure("this conversation has seen external content, so notes wait for the user's approval,"
                    + " and this memory store cannot keep them: the note was not recorded");
        }
        LOG.info("Ad-hoc note {} awaits approval as note:{}{}", request.filename(), id,
                request.externalContext() ? " (its conversation saw external context)" : "");
        return Optional.of(EngineAdmin.NOTE_PREFIX + id);
    }

    /**
     * A person approved {@code note}: it is written to the notes folder, its header naming its
     * conversation, and told as a note the memory tool writes at once is, a {@code create_memory}
     * (source {@value #APPROVAL}) naming its path. A write that fails puts the note back to wait.
     */
    void approved(PendingNote note) {
        BackgroundOperations.Start start = operations.start();
        Path written;
        try {
            written = tools.get().writeApprovedNote(note.filename(), note.projectSlug(), note.text(), note.threadId());
        } catch (RuntimeException e) {
            parts.store().addPendingNote(note); // nothing lost: it waits again
            throw e;
        }
        String path = parts.memoryRoot().relativize(written).toString().replace(File.separatorChar, '/');
        operations.operation(MemoryOperation.Type.CREATE, APPROVAL, Optional.of(path), 1, List.of(), start,
                Optional.empty(), BackgroundOperations.currentRun());
    }

    /** A person rejected {@code note}: the same note from the same conversation is refused from now on. */
    void rejected(PendingNote note) {
        try {
            parts.store().addNoteRejection(note.threadId().orElse(""), AdHocNoteFiles.fingerprint(note.text()),
                    parts.clock().instant());
        } catch (UnsupportedOperationException e) {
            LOG.warn("note {} rejected, but {}: the same note may be asked for again", note.id(), e.getMessage());
        }
    }

    /**
     * The conversation was forgotten: its pending notes are dropped from the store and its written
     * notes from the notes folder (and from the workspace's shared copy). A failure is logged, not
     * thrown, so the rest of the forget (the thread's memory in the workspace) still runs.
     */
    void forgetConversation(String threadId) {
        int pending = 0;
        try {
            pending = parts.store().takePendingNotesOf(threadId).size();
        } catch (UnsupportedOperationException e) {
            LOG.debug("{}; no pending note of thread {} dropped", e.getMessage(), threadId);
        } catch (RuntimeException e) {
            // The forget of the thread's memory goes on; the notes are named so a person can act.
            LOG.warn("forgetting thread {}: its notes awaiting approval could not be dropped; reject them by hand"
                    + " (mnemo pending)", threadId, e);
        }
        int written;
        try {
            written = tools.get().removeNotesOf(threadId, parts.workspace()::noteRemoved);
        } catch (RuntimeException e) {
            LOG.warn("forgetting thread {}: its notes under extensions/ad_hoc/notes/ could not all be removed (those"
                    + " with the header 'source: conversation {}' remain)", threadId, threadId, e);
            return;
        }
        if (pending + written > 0) {
            LOG.info("forgot thread {}: {} pending and {} written ad-hoc note(s) removed", threadId, pending, written);
        }
    }

    private boolean isRejected(String source, String note) {
        try {
            return parts.store().isNoteRejected(source, AdHocNoteFiles.fingerprint(note));
        } catch (UnsupportedOperationException e) {
            LOG.debug("{}; the note is not checked against rejections", e.getMessage());
            return false;
        }
    }
}
