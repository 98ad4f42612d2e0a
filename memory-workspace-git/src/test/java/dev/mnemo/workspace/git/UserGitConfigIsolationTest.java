package dev.mnemo.workspace.git;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.SelectedInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileBasedConfig;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.SystemReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user whose {@code ~/.gitconfig} signs commits, renames the default branch, converts line
 * endings, ignores {@code *.md}, logs every ref update and installs hooks must not change what the
 * workspace stores.
 *
 * <p>JGit caches the user config of its {@link SystemReader} for the JVM, so besides pointing
 * {@code user.home} at the hostile home this test installs a reader that loads the user config
 * from there, and restores both afterwards.
 */
class UserGitConfigIsolationTest {

    @TempDir
    Path temp;

    private String savedUserHome;
    private SystemReader savedReader;

    @BeforeEach
    void installHostileUserConfig() throws IOException {
        Path home = temp.resolve("home");
        Path hooks = home.resolve("hooks");
        Files.createDirectories(hooks);
        Path marker = home.resolve("hook-ran");
        for (String hook : List.of("pre-commit", "commit-msg", "post-commit")) {
            Path script = hooks.resolve(hook);
            Files.writeString(script, "#!/bin/sh\ntouch '" + marker + "'\nexit 1\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.writeString(home.resolve("ignore"), "*.md\n");
        Files.writeString(home.resolve(".gitconfig"), """
                [user]
                \tname = Somebody Else
                \temail = somebody@example.com
                \tsigningkey = /nonexistent/key
                [commit]
                \tgpgsign = true
                [gpg]
                \tformat = ssh
                \tprogram = /nonexistent/gpg
                [init]
                \tdefaultBranch = trunk
                [core]
                \tautocrlf = true
                \thooksPath = %s
                \texcludesFile = %s
                \tlogAllRefUpdates = always
                [gc]
                \tauto = 1
                """.formatted(hooks, home.resolve("ignore")));
        savedUserHome = System.getProperty("user.home");
        System.setProperty("user.home", home.toString());
        savedReader = SystemReader.getInstance();
        SystemReader.setInstance(new HomeUserConfigReader(savedReader, home));
    }

    @AfterEach
    void restoreUserConfig() {
        SystemReader.setInstance(savedReader);
        System.setProperty("user.home", savedUserHome);
    }

    @Test
    void userGitConfig_doesNotChangeWhatTheWorkspaceStores() throws Exception {
        assertThat(SystemReader.getInstance().getUserConfig().getBoolean("commit", "gpgsign", false))
                .as("the hostile user config is what JGit reads")
                .isTrue();
        try (Git probe = Git.init().setDirectory(temp.resolve("probe").toFile()).call()) {
            assertThat(probe.getRepository().getFullBranch())
                    .as("JGit's porcelain would follow the hostile config")
                    .isEqualTo("refs/heads/trunk");
        }
        Path root = temp.resolve("memories");
        byte[] crlf = "line one\r\nline two\r\n".getBytes(StandardCharsets.UTF_8);
        try (MemoryWorkspace workspace = GitMemoryWorkspace.open(root)) {
            workspace.prepare();
            Files.write(root.resolve("MEMORY.md"), crlf);
            workspace.commit(new ConsolidationRecord("c1", Instant.parse("2026-03-01T00:00:00Z"),
                    List.of(new SelectedInput("t1", Instant.ofEpochSecond(1_700_000_000L))), "gpt-test",
                    TokenUsage.ZERO), 10);
            workspace.commit(new ConsolidationRecord("c2", Instant.parse("2026-03-02T00:00:00Z"),
                    List.of(), "gpt-test", TokenUsage.ZERO), 1);

            assertThat(workspace.diff().isEmpty()).isTrue();
            assertThat(workspace.history()).hasSize(1);
        }

        try (Repository repo = new FileRepositoryBuilder().setGitDir(root.resolve(".git").toFile()).setMustExist(true).build();
                RevWalk walk = new RevWalk(repo)) {
            assertThat(repo.exactRef(Constants.HEAD).getTarget().getName()).isEqualTo("refs/heads/main");
            assertThat(repo.exactRef("refs/heads/trunk")).isNull();
            RevCommit head = walk.parseCommit(repo.resolve(Constants.HEAD));
            assertThat(head.getRawGpgSignature()).isNull();
            assertThat(new String(head.getRawBuffer(), StandardCharsets.UTF_8)).doesNotContain("gpgsig");
            assertThat(head.getAuthorIdent().toExternalString()).startsWith("Mnemo <mnemo@localhost>");
            try (TreeWalk file = TreeWalk.forPath(repo, "MEMORY.md", head.getTree())) {
                assertThat(file).as("*.md from the user's excludesFile is still stored").isNotNull();
                assertThat(repo.open(file.getObjectId(0)).getBytes()).isEqualTo(crlf);
            }
        }
        assertThat(temp.resolve("home/hook-ran")).doesNotExist();
        assertThat(root.resolve(".git/logs")).doesNotExist();
    }

    /** Delegates to JGit's reader but loads the user config from a given home, uncached. */
    @SuppressWarnings("deprecation")
    private static final class HomeUserConfigReader extends SystemReader {
        private final SystemReader delegate;
        private final Path home;

        HomeUserConfigReader(SystemReader delegate, Path home) {
            this.delegate = delegate;
            this.home = home;
        }

        @Override
        public FileBasedConfig openUserConfig(Config parent, FS fs) {
            return new FileBasedConfig(parent, home.resolve(".gitconfig").toFile(), fs);
        }

        @Override
        public FileBasedConfig openSystemConfig(Config parent, FS fs) {
            return delegate.openSystemConfig(parent, fs);
        }

        @Override
        public FileBasedConfig openJGitConfig(Config parent, FS fs) {
            return delegate.openJGitConfig(parent, fs);
        }

        @Override
        public String getHostname() {
            return delegate.getHostname();
        }

        @Override
        public String getenv(String variable) {
            return delegate.getenv(variable);
        }

        @Override
        public String getProperty(String key) {
            return delegate.getProperty(key);
        }

        @Override
        public long getCurrentTime() {
            return delegate.getCurrentTime();
        }

        @Override
        public int getTimezone(long when) {
            return delegate.getTimezone(when);
        }
    }
}
