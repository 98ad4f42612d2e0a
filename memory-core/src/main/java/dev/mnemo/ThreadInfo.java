package dev.mnemo;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One session ("thread") as the registry knows it.
 *
 * @param id the thread id
 * @param rolloutPath the rollout JSONL file
 * @param createdAt when the session started
 * @param updatedAt the time of its last recorded line; drives the idle and age windows
 * @param source where it ran ({@code app}, {@code cli}, {@code vscode}, {@code exec}, ...)
 * @param cwd its working folder, if known
 * @param gitBranch its git branch, if known
 * @param preview its first real user message; an empty preview is never extracted
 * @param memoryMode whether it may become memory
 * @param archived archived threads are never extracted
 * @param project the project key of the session ({@link SessionContext#project()}), if it had one;
 *     its memory is filed under that project
 * @param endedAt when the application last said the conversation was over
 *     ({@link MemorySession#end()}, {@link MemoryEngine#closeConversation}), if it ever did. Read
 *     from the store; the store sets it only through
 *     {@link dev.mnemo.spi.ThreadStore#markThreadEnded}, and
 *     {@link dev.mnemo.spi.ThreadStore#upsertThread} neither sets nor clears it. Whether it still
 *     counts is {@link #finished()}
 */
public record ThreadInfo(String id, Path rolloutPath, Instant createdAt, Instant updatedAt, String source,
        Optional<Path> cwd, Optional<String> gitBranch, String preview, MemoryMode memoryMode, boolean archived,
        Optional<String> project, Optional<Instant> endedAt) {

    /**
     * Checks the components.
     *
     * @param id the thread id
     * @param rolloutPath the rollout JSONL file
     * @param createdAt when the session started
     * @param updatedAt the time of its last recorded line
     * @param source where it ran ({@code app}, {@code cli}, ...)
     * @param cwd its working folder, if known
     * @param gitBranch its git branch, if known
     * @param preview its first real user message; empty means it is never extracted
     * @param memoryMode whether it may become memory
     * @param archived whether it is archived (never extracted)
     * @param project the project key of the session, if it had one
     * @param endedAt when the application last said the conversation was over, if it ever did
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when the id or a present project key is blank
     */
    public ThreadInfo {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(rolloutPath, "rolloutPath");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(cwd, "cwd");
        Objects.requireNonNull(gitBranch, "gitBranch");
        Objects.requireNonNull(preview, "preview");
        Objects.requireNonNull(memoryMode, "memoryMode");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(endedAt, "endedAt");
        if (project.isPresent() && project.get().isBlank()) {
            throw new IllegalArgumentException("project key must not be blank (leave it empty for no project)");
        }
        if (id.isBlank()) {
            throw new IllegalArgumentException("thread id must not be blank");
        }
    }

    /**
     * A thread never ended by the application (the form of earlier releases).
     *
     * @param id the thread id
     * @param rolloutPath the rollout JSONL file
     * @param createdAt when the session started
     * @param updatedAt the time of its last recorded line
     * @param source where it ran ({@code app}, {@code cli}, ...)
     * @param cwd its working folder, if known
     * @param gitBranch its git branch, if known
     * @param preview its first real user message; empty means it is never extracted
     * @param memoryMode whether it may become memory
     * @param archived whether it is archived (never extracted)
     * @param project the project key of the session, if it had one
     */
    public ThreadInfo(String id, Path rolloutPath, Instant createdAt, Instant updatedAt, String source,
            Optional<Path> cwd, Optional<String> gitBranch, String preview, MemoryMode memoryMode, boolean archived,
            Optional<String> project) {
        this(id, rolloutPath, createdAt, updatedAt, source, cwd, gitBranch, preview, memoryMode, archived, project,
                Optional.empty());
    }

    /**
     * A thread with no project (the form of earlier releases).
     *
     * @param id the thread id
     * @param rolloutPath the rollout JSONL file
     * @param createdAt when the session started
     * @param updatedAt the time of its last recorded line
     * @param source where it ran ({@code app}, {@code cli}, ...)
     * @param cwd its working folder, if known
     * @param gitBranch its git branch, if known
     * @param preview its first real user message; empty means it is never extracted
     * @param memoryMode whether it may become memory
     * @param archived whether it is archived (never extracted)
     */
    public ThreadInfo(String id, Path rolloutPath, Instant createdAt, Instant updatedAt, String source,
            Optional<Path> cwd, Optional<String> gitBranch, String preview, MemoryMode memoryMode, boolean archived) {
        this(id, rolloutPath, createdAt, updatedAt, source, cwd, gitBranch, preview, memoryMode, archived,
                Optional.empty(), Optional.empty());
    }

    /**
     * Whether the conversation is finished: the application ended it ({@link #endedAt()}) at or after
     * its last recorded line ({@link #updatedAt()}), the two compared in whole milliseconds, as
     * stores keep them. A conversation that went on after it was ended (a line recorded later) is not
     * finished until it is ended again. A finished conversation needs no {@code min_rollout_idle_hours}
     * wait before Phase 1 extracts it ({@link dev.mnemo.spi.Stage1ClaimParams#passesIdleGate}).
     *
     * @return true when it was ended at or after its last recorded line
     */
    public boolean finished() {
        return endedAt.isPresent() && endedAt.get().toEpochMilli() >= updatedAt.toEpochMilli();
    }

    /**
     * A builder for a thread with this id; source {@code app}, empty preview, memory enabled, not archived by default.
     *
     * @param id the thread id
     * @return a new builder
     * @throws NullPointerException when {@code id} is null
     */
    public static Builder builder(String id) {
        return new Builder(id);
    }

    /**
     * A builder holding every component of this thread, to change a few.
     *
     * @return a new builder with this thread's values
     */
    public Builder toBuilder() {
        return new Builder(id).rolloutPath(rolloutPath).createdAt(createdAt).updatedAt(updatedAt).source(source)
                .cwd(cwd.orElse(null)).gitBranch(gitBranch.orElse(null)).preview(preview).memoryMode(memoryMode)
                .archived(archived).project(project.orElse(null)).endedAt(endedAt.orElse(null));
    }

    /**
     * This thread with another memory mode.
     *
     * @param mode the new memory mode
     * @return a copy of this thread with {@code mode}
     */
    public ThreadInfo withMemoryMode(MemoryMode mode) {
        return toBuilder().memoryMode(mode).build();
    }

    /** Builds a {@link ThreadInfo}; the rollout path and the two times are required. */
    public static final class Builder {
        private final String id;
        private Path rolloutPath;
        private Instant createdAt;
        private Instant updatedAt;
        private String source = "app";
        private Path cwd;
        private String gitBranch;
        private String preview = "";
        private MemoryMode memoryMode = MemoryMode.ENABLED;
        private boolean archived;
        private String project;
        private Instant endedAt;

        private Builder(String id) {
            this.id = Objects.requireNonNull(id, "id");
        }

        /**
         * Sets the rollout JSONL file (required).
         *
         * @param rolloutPath the rollout file
         * @return this builder
         */
        public Builder rolloutPath(Path rolloutPath) {
            this.rolloutPath = rolloutPath;
            return this;
        }

        /**
         * Sets when the session started (required).
         *
         * @param createdAt the start time
         * @return this builder
         */
        public Builder createdAt(Instant createdAt) {
            this.createdAt = createdAt;
            return this;
        }

        /**
         * Sets the time of the last recorded line (required).
         *
         * @param updatedAt the time of the last line
         * @return this builder
         */
        public Builder updatedAt(Instant updatedAt) {
            this.updatedAt = updatedAt;
            return this;
        }

        /**
         * Sets where the session ran; {@code app} by default.
         *
         * @param source {@code app}, {@code cli}, {@code vscode}, {@code exec}, ...
         * @return this builder
         */
        public Builder source(String source) {
            this.source = source;
            return this;
        }

        /**
         * The working folder, or null when unknown.
         *
         * @param cwd the working folder, or null
         * @return this builder
         */
        public Builder cwd(Path cwd) {
            this.cwd = cwd;
            return this;
        }

        /**
         * The git branch, or null when unknown.
         *
         * @param gitBranch the git branch, or null
         * @return this builder
         */
        public Builder gitBranch(String gitBranch) {
            this.gitBranch = gitBranch;
            return this;
        }

        /**
         * Sets the first real user message; empty by default (never extracted).
         *
         * @param preview the preview text
         * @return this builder
         */
        public Builder preview(String preview) {
            this.preview = preview;
            return this;
        }

        /**
         * Sets whether the thread may become memory; {@link MemoryMode#ENABLED} by default.
         *
         * @param memoryMode the memory mode
         * @return this builder
         */
        public Builder memoryMode(MemoryMode memoryMode) {
            this.memoryMode = memoryMode;
            return this;
        }

        /**
         * Sets whether the thread is archived (never extracted); false by default.
         *
         * @param archived true when archived
         * @return this builder
         */
        public Builder archived(boolean archived) {
            this.archived = archived;
            return this;
        }

        /**
         * The project key, or null when the session had none.
         *
         * @param project the project key, or null
         * @return this builder
         */
        public Builder project(String project) {
            this.project = project;
            return this;
        }

        /**
         * When the application last ended the conversation, or null when it never did; see {@link ThreadInfo#endedAt()}.
         *
         * @param endedAt the end time, or null
         * @return this builder
         */
        public Builder endedAt(Instant endedAt) {
            this.endedAt = endedAt;
            return this;
        }

        /**
         * Builds the thread.
         *
         * @return the thread
         * @throws NullPointerException when the rollout path, a time, the source, the preview or the memory mode is null
         * @throws IllegalArgumentException when the id or the project key is blank
         */
        public ThreadInfo build() {
            return new ThreadInfo(id, rolloutPath, createdAt, updatedAt, source, Optional.ofNullable(cwd),
                    Optional.ofNullable(gitBranch), preview, memoryMode, archived, Optional.ofNullable(project),
                    Optional.ofNullable(endedAt));
        }
    }
}
