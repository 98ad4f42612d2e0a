package dev.mnemo.internal.engine;

import dev.mnemo.AssistantMessage;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.AgentGraph;
import dev.mnemo.MemoryAdmin;
import dev.mnemo.MessageHistory;
import dev.mnemo.ThreadGoals;
import dev.mnemo.ThreadLogs;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import dev.mnemo.SessionContext;
import dev.mnemo.SessionRecorder;
import dev.mnemo.StartupTask;
import dev.mnemo.ThreadRegistry;
import dev.mnemo.llm.TokenCounter;

/**
 * A tenant's engine as {@link TenantEngines} hands it out: every call goes to the real engine,
 * except {@link #close()}, which belongs to the set.
 */
record SharedEngine(MemoryEngine delegate) implements MemoryEngine {

    @Override
    public MemorySession openSession(SessionContext session) {
        return delegate.openSession(session);
    }

    @Override
    public MemorySession conversation(String conversationId) {
        return delegate.conversation(conversationId);
    }

    @Override
    public MemorySession conversation(SessionContext session) {
        return delegate.conversation(session);
    }

    @Override
    public String buildDeveloperInstructions(String projectKey) {
        return delegate.buildDeveloperInstructions(projectKey);
    }

    @Override
    public String buildToolInstructions(String projectKey) {
        return delegate.buildToolInstructions(projectKey);
    }

    @Override
    public boolean closeConversation(String conversationId) {
        return delegate.closeConversation(conversationId);
    }

    @Override
    public String buildToolInstructions() {
        return delegate.buildToolInstructions();
    }

    @Override
    public StartupTask startStartupTask(SessionContext session) {
        return delegate.startStartupTask(session);
    }

    @Override
    public String buildDeveloperInstructions() {
        return delegate.buildDeveloperInstructions();
    }

    @Override
    public AssistantMessage processAssistantMessage(String threadId, String text) {
        return delegate.processAssistantMessage(threadId, text);
    }

    @Override
    public ThreadRegistry threads() {
        return delegate.threads();
    }

    @Override
    public SessionRecorder sessions() {
        return delegate.sessions();
    }

    @Override
    public MemoryTools tools() {
        return delegate.tools();
    }

    @Override
    public MessageHistory messageHistory() {
        return delegate.messageHistory();
    }

    @Override
    public AgentGraph agentGraph() {
        return delegate.agentGraph();
    }

    @Override
    public ThreadLogs threadLogs() {
        return delegate.threadLogs();
    }

    @Override
    public ThreadGoals goals() {
        return delegate.goals();
    }

    @Override
    public MemoryAdmin admin() {
        return delegate.admin();
    }

    @Override
    public TokenCounter tokenCounter() {
        return delegate.tokenCounter();
    }

    @Override
    public MemoriesConfig config() {
        return delegate.config();
    }

    @Override
    public void close() {
        throw new UnsupportedOperationException("this engine is shared by its tenant's callers and closed by "
                + "MemoryEngines.close() (or when it is idle or least recently used); do not close it yourself");
    }
}
