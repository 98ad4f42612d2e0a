package dev.mnemo.internal.rollout;

import dev.mnemo.MemoryMode;
import dev.mnemo.ProjectKeys;
import dev.mnemo.ThreadInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the thread a rollout file describes (SPEC "Thread registry and rollout sources"): id,
 * source, cwd, git branch, preview (the first real user message), created and updated times and
 * the persisted memory mode. The file is streamed once; it is never changed.
 */
public final class RolloutFiles {

    private static final Logger LOG = LoggerFactory.getLogger(RolloutFiles.class);

    private RolloutFiles() {}

    /**
     * What reading one rollout gave.
     *
     * @param thread the thread, or empty when the file has no readable {@code session_meta}
     * @param malformedLines lines skipped because they were not well-formed
     * @param problem why no thread was read, when {@code thread} is empty
     */
    public record Inspection(Optional<ThreadInfo> thread, long malformedLines, Optional<String> problem) {
        public Inspection {
            Objects.requireNonNull(thread, "thread");
            Objects.requireNonNull(problem, "problem");
        }
    }

    /**
     * The thread of {@code rollout}, or empty (with a warning) when the file cannot be read or has
     * no readable {@code session_meta}.
     */
    public static Optional<ThreadInfo> readThread(Path rollout) {
        Inspection inspection = inspect(rollout);
        inspection.problem().ifPresent(problem -> LOG.warn("Not registering rollout {}: {}", rollout, problem));
        return inspection.thread();
    }

    /** Like {@link #readThread}, but reports the problem and the malformed-line count instead of logging. */
    public static Inspection inspect(Path rollout) {
        Objects.requireNonNull(rollout, "rollout");
        ThreadFacts facts = new ThreadFacts();
        RolloutReader.ReadStats stats;
        Instant modified;
        try {
            stats = RolloutReader.read(rollout, facts::wantsPayload, facts::accept);
            modified = Files.getLastModifiedTime(rollout).toInstant();
        } catch (IOException | RuntimeException e) {
            return new Inspection(Optional.empty(), 0, Optional.of("cannot be read: " + e));
        }
        if (facts.meta == null) {
            return new Inspection(Optional.empty(), stats.malformedLines(),
                    Optional.of("no readable session_meta line"));
        }
        SessionMeta meta = facts.meta;
        Instant updatedAt = facts.lastTimestamp != null ? facts.lastTimestamp : modified;
        Instant createdAt = meta.timestamp()
                .orElse(facts.firstTimestamp != null ? facts.firstTimestamp : updatedAt);
        Optional<Path> cwd = meta.cwd().isBlank() ? Optional.empty() : Optional.of(Path.of(meta.cwd()));
        ThreadInfo thread = ThreadInfo.builder(meta.id())
                .rolloutPath(rollout.toAbsolutePath())
                .createdAt(createdAt)
                .updatedAt(updatedAt)
                .source(meta.source())
                .cwd(cwd.orElse(null))
                .gitBranch(meta.gitBranch().isBlank() ? null : meta.gitBranch())
                .preview(facts.preview())
                .memoryMode(meta.memoryMode().orElse(MemoryMode.ENABLED))
                .archived(isArchived(rollout))
                .project(meta.project().or(() -> cwd.map(ProjectKeys::forDirectory)).orElse(null))
                .build();
        return new Inspection(Optional.of(thread), stats.malformedLines(), Optional.empty());
    }

    private static boolean isArchived(Path rollout) {
        for (Path part : rollout.toAbsolutePath()) {
            if (part.toString().equals("archived_sessions")) {
                return true;
            }
        }
        return false;
    }

    /** Collects the thread's facts while the file streams past. */
    private static final class ThreadFacts {
        SessionMeta meta;
        Instant firstTimestamp;
        Instant lastTimestamp;
        String messagePreview;
        String eventPreview;

        /** Payloads are built only while they can still add a fact. */
        boolean wantsPayload(RolloutLine.Kind kind) {
            switch (kind) {
                case SESSION_META:
                    return meta == null;
                case RESPONSE_ITEM:
                    return messagePreview == null;
                case EVENT_MSG:
                    return messagePreview == null && eventPreview == null;
                default:
                    return false;
            }
        }

        void accept(RolloutLine line) {
            line.timestamp().ifPresent(t -> {
                if (firstTimestamp == null) {
                    firstTimestamp = t;
                }
                lastTimestamp = t;
            });
            switch (line.kind()) {
                case SESSION_META:
                    if (meta == null) {
                        meta = SessionMeta.parse(line.payload()).orElse(null);
                    }
                    break;
                case RESPONSE_ITEM:
                    if (messagePreview == null && "message".equals(line.payloadType())) {
                        messagePreview = userText(ResponseItem.parse(line.payload()));
                    }
                    break;
                case EVENT_MSG:
                    if (eventPreview == null && "user_message".equals(line.payloadType())) {
                        String text = ResponseItemParser.text(line.payload(), "message");
                        eventPreview = ContextualFragments.isRealUserText(text) ? text : null;
                    }
                    break;
                default:
                    break;
            }
        }

        String preview() {
            String text = messagePreview != null ? messagePreview : eventPreview;
            return text == null ? "" : ContextualFragments.previewText(text);
        }

        private static String userText(ResponseItem item) {
            if (item instanceof ResponseItem.Message && ((ResponseItem.Message) item).role().equals("user")) {
                for (ResponseItem.Content content : ((ResponseItem.Message) item).content()) {
                    if (!content.isOpaque() && ContextualFragments.isRealUserText(content.text())) {
                        return content.text();
                    }
                }
            }
            return null;
        }
    }
}
