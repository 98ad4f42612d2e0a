package dev.mnemo.eval;

/** How the answering model is set up for a probe. */
public enum Condition {
    /** Mnemo: the session's memory instructions and the memory tools, after Phase 1 and Phase 2. */
    MNEMO,
    /** No memory at all: the baseline every memory must beat. */
    NO_MEMORY,
    /** The raw past transcripts pasted into the instructions, newest kept, up to the summary's token budget. */
    TRANSCRIPTS
}
