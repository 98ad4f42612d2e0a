package dev.mnemo;

import dev.mnemo.llm.ToolSpec;
import java.util.List;

/**
 * The memory tools an agent can hand its model: list, read and search the memory folder, and add
 * an ad-hoc note. Paths are confined to the memory root.
 */
public interface MemoryTools {

    /** JSON-schema definitions to hand to a model. */
    List<ToolSpec> specs();

    /**
     * Runs one tool call.
     *
     * @return a JSON result, or a JSON error object the model can read; bad input never throws
     */
    String call(String toolName, String argumentsJson);
}
