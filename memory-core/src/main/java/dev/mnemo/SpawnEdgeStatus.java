package dev.mnemo;

/** Whether a sub-agent spawned by a thread is still running ({@code open}) or done ({@code closed}). */
public enum SpawnEdgeStatus {
    /** The sub-agent is still running ({@code open}). */
    OPEN,
    /** The sub-agent is done ({@code closed}). */
    CLOSED
}
