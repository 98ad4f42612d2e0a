package dev.mnemo.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;

/**
 * A memory folder with the global handbook and two projects, {@link #APP} and {@link #WEB}: each
 * project's {@code MEMORY.md} and the web project's recap, every file naming "build".
 */
abstract class TwoProjectsFixture extends ToolsFixture {

    static final String APP = "/work/src/app";
    static final String WEB = "/work/src/web";
    String appSlug;
    String webSlug;

    @BeforeEach
    void plantTwoProjects() {
        appSlug = ProjectKeys.slug(APP);
        webSlug = ProjectKeys.slug(WEB);
        write("MEMORY.md", "- the user likes short answers about the build\n");
        write("projects/" + appSlug + "/MEMORY.md", "- the app build uses pnpm\n");
        write("projects/" + webSlug + "/MEMORY.md", "- the web build uses npm\n");
        write("rollout_summaries/2026-11-01T10-00-00-aaaa-web.md",
                "thread_id: t-web\ncwd: /work/src/web\nproject: projects/" + webSlug + "/\n\nthe web build broke\n");
    }

    /** The paths {@code memories_search} finds with {@code scoped}, in order; the call must succeed. */
    static List<String> searchPaths(MemoryTools scoped, String arguments) {
        JsonNode result = parse(scoped.call(LocalMemoryTools.SEARCH, arguments));
        assertThat(result.has("error")).as("unexpected error: %s", result).isFalse();
        List<String> paths = new ArrayList<>();
        for (JsonNode match : result.get("matches")) {
            paths.add(match.get("path").asText());
        }
        return paths;
    }
}
