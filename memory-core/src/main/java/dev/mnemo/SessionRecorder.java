package dev.mnemo;

/**
 * Records an agent's sessions as Codex-format rollouts under {@code <home>/sessions/}, keeping the
 * thread registry current, so they can become memories later.
 */
public interface SessionRecorder {

    /**
     * Starts recording a session. An ephemeral session gives a recorder that writes nothing.
     *
     * @param session the session to record
     * @return the recorder of that session; close it when the session ends
     */
    RecordedSession start(SessionContext session);
}
