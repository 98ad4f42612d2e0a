package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Project keys (issue 29): worktrees share one project, same-named repositories do not collide. */
class ProjectKeysTest {

    @TempDir
    Path temp;

    @Test
    void twoWorktreesOfOneRepository_shareTheMainRepositorysKey() throws Exception {
        Path main = Files.createDirectories(temp.resolve("billing"));
        git(main, "init", "-q");
        git(main, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "init");
        Path linked = temp.resolve("billing-feature");
        git(main, "worktree", "add", "-q", linked.toString());
        Path nested = Files.createDirectories(linked.resolve("src/main"));

        String fromMain = ProjectKeys.forDirectory(main.resolve("."));
        assertThat(ProjectKeys.forDirectory(linked)).isEqualTo(fromMain);
        assertThat(ProjectKeys.forDirectory(nested)).isEqualTo(fromMain);
        assertThat(fromMain).isEqualTo(main.toRealPath().toString());
    }

    @Test
    void aWorktreeLaidOutByHand_resolvesThroughCommondir() throws IOException {
        Path main = Files.createDirectories(temp.resolve("repo"));
        Path gitDir = Files.createDirectories(main.resolve(".git/worktrees/wt"));
        Files.writeString(gitDir.resolve("commondir"), "../..\n");
        Path linked = Files.createDirectories(temp.resolve("wt"));
        Files.writeString(linked.resolve(".git"), "gitdir: " + gitDir + "\n");

        assertThat(ProjectKeys.forDirectory(linked)).isEqualTo(main.toRealPath().toString());
    }

    @Test
    void aSubmodule_isItsOwnProject() throws IOException {
        Path outer = Files.createDirectories(temp.resolve("outer"));
        Files.createDirectories(outer.resolve(".git/modules/lib"));
        Path lib = Files.createDirectories(outer.resolve("lib"));
        Files.writeString(lib.resolve(".git"), "gitdir: ../.git/modules/lib\n");

        assertThat(ProjectKeys.forDirectory(lib)).isEqualTo(lib.toRealPath().toString());
    }

    @Test
    void aFolderOutsideAnyRepository_isItsOwnKey() throws IOException {
        Path plain = Files.createDirectories(temp.resolve("notes"));

        assertThat(ProjectKeys.forDirectory(plain)).isEqualTo(plain.toRealPath().toString());
    }

    @Test
    void twoRepositoriesWithTheSameFolderName_getDifferentSlugs_thatReadAsTheProject() {
        String a = ProjectKeys.slug("/home/ana/src/billing");
        String b = ProjectKeys.slug("/home/ana/forks/billing");

        assertThat(a).isNotEqualTo(b).startsWith("billing-").matches("[a-z0-9-]+");
        assertThat(b).startsWith("billing-");
        assertThat(ProjectKeys.slug("/home/ana/src/billing")).as("stable").isEqualTo(a);
    }

    @Test
    void slugs_arePathSafeForAnyKey() {
        for (String key : List.of("acme/Billing Team", "case 4711", "../../etc", "C:\\Users\\ana\\app", "über-projekt",
                "x".repeat(500), "/")) {
            String slug = ProjectKeys.slug(key);
            assertThat(slug).matches("[a-z0-9-]{1,60}").doesNotStartWith("-");
        }
        assertThat(ProjectKeys.slug("Acme")).isNotEqualTo(ProjectKeys.slug("acme"));
    }

    @Test
    void blankKeys_areRefused() {
        assertThatThrownBy(() -> ProjectKeys.slug("  ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SessionContext.root("t").inProject(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("project key");
    }

    @Test
    void aSessionsProject_isTheExplicitKeyElseItsCwdsRepository() throws IOException {
        Path plain = Files.createDirectories(temp.resolve("work"));

        assertThat(SessionContext.root("t").project()).isEmpty();
        assertThat(SessionContext.root("t").withCwd(plain).project()).contains(plain.toRealPath().toString());
        assertThat(SessionContext.root("t").withCwd(plain).inProject(" acme ").project()).contains("acme");
        assertThat(SessionContext.root("t").spawnedBy("parent")).satisfies(s -> {
            assertThat(s.subAgent()).isTrue();
            assertThat(s.parentThreadId()).contains("parent");
        });
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process process;
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "git is not installed: " + e.getMessage());
            return;
        }
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("git %s: %s", args, output).isZero();
    }
}
