package dev.mnemo.internal.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ProjectKeys;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Phase 2 with scopes (issue 29): inputs grouped by project with each project's folder named, and
 * project folders validated like the global pair.
 */
class ScopedConsolidationInputsTest {

    private static final String APP = "/work/src/app";
    private static final String WEB = "/work/src/web";

    @TempDir
    Path root;

    @Test
    void rawMemories_groupTheInputsByScope_globalFirst_andNameEachProjectsFolder() throws IOException {
        WorkspaceSync.sync(root, List.of(output("t3", WEB, "web uses npm"), output("t1", APP, "app uses pnpm"),
                output("t2", null, "likes short answers"), output("t4", APP, "app is on Java 17")));

        String raw = Files.readString(root.resolve("raw_memories.md"));
        String app = "projects/" + ProjectKeys.slug(APP) + "/";
        String web = "projects/" + ProjectKeys.slug(WEB) + "/";
        int global = raw.indexOf("# Scope: no project");
        int appGroup = raw.indexOf("# Scope: project " + app + " (" + APP + ")");
        int webGroup = raw.indexOf("# Scope: project " + web + " (" + WEB + ")");
        assertThat(global).isPositive();
        assertThat(appGroup).isGreaterThan(global);
        assertThat(webGroup).isPositive();
        assertThat(raw.indexOf("likes short answers")).isBetween(global, Math.min(appGroup, webGroup));
        String appSection = raw.substring(appGroup, webGroup > appGroup ? webGroup : raw.length());
        assertThat(appSection).contains("app uses pnpm", "app is on Java 17", "project: " + app)
                .doesNotContain("web uses npm").doesNotContain("short answers");
        assertThat(appSection.indexOf("`t1`")).isLessThan(appSection.indexOf("`t4`"));
        assertThat(WorkspaceSync.rolloutSummary(output("t1", APP, "x"))).contains("\nproject: " + app + "\n\n");
        assertThat(WorkspaceSync.rolloutSummary(output("t2", null, "x"))).doesNotContain("project:");
    }

    @Test
    void projectFolders_areValidatedLikeTheGlobalPair() throws IOException {
        Files.writeString(root.resolve("MEMORY.md"), "# global\n");
        Files.writeString(root.resolve("memory_summary.md"), "v1\n\nglobal\n");
        assertThat(Artifacts.problem(root)).isNull();

        Path app = Files.createDirectories(root.resolve("projects/app-1"));
        Files.writeString(app.resolve("MEMORY.md"), "# app\n");
        assertThat(Artifacts.problem(root)).isEqualTo("projects/app-1/memory_summary.md is missing");

        Files.writeString(app.resolve("memory_summary.md"), "no version line\n");
        assertThat(Artifacts.valid(root)).isFalse();
        assertThat(Artifacts.problem(root)).isEqualTo("projects/app-1/memory_summary.md does not start with the line v1");

        Files.writeString(app.resolve("memory_summary.md"), "v1\n\napp\n");
        assertThat(Artifacts.valid(root)).isTrue();

        Files.writeString(root.resolve("projects/stray.md"), "x");
        assertThat(Artifacts.problem(root)).isEqualTo("projects/stray.md is not a project folder");
    }

    private static Stage1Output output(String thread, String project, String raw) {
        return new Stage1Output(thread, Instant.parse("2026-11-01T00:00:00Z"),
                new Stage1Result(raw, "summary of " + thread, Optional.of("s-" + thread)),
                Instant.parse("2026-11-01T00:00:00Z"), 0, Optional.empty(), Optional.empty(),
                Path.of("/sessions/" + thread + ".jsonl"), Optional.of(Path.of("/work")), Optional.empty(),
                Optional.ofNullable(project));
    }
}
