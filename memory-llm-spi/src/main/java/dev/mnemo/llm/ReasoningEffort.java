package dev.mnemo.llm;

/** How hard a reasoning model should think; clients map it to their API's setting, or ignore it. */
public enum ReasoningEffort {
    /** No reasoning parameter at all. */
    NONE,
    /** Little reasoning. */
    LOW,
    /** Some reasoning. */
    MEDIUM,
    /** As much reasoning as the model does. */
    HIGH
}
