package dev.mnemo.llm;

/** How hard a reasoning model should think; clients map it to their API's setting, or ignore it. */
public enum ReasoningEffort {
    NONE,
    LOW,
    MEDIUM,
    HIGH
}
