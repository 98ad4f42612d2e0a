package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The warm-up {@code main} starts: when it runs, that commands wait for it, that it cannot break them. */
@Timeout(120)
class StartupWarmUpTest {

    @TempDir
    Path temp;

    @Test
    void start_forHelpVersionOrMcp_startsNothing() {
        Runnable fails = () -> {
            throw new AssertionError("no warm-up expected");
        };
        for (String[] args : new String[][] {{"--version"}, {"-V"}, {"status", "--help"}, {"-h"}, {"help", "status"},
                {"--home", "/tmp/h", "mcp"}}) {
            assertThat(StartupWarmUp.start(args, fails)).as(String.join(" ", args)).isSameAs(StartupWarmUp.none());
        }
    }

    @Test
    void command_runsOnlyAfterTheWarmUpHasFinished() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> warmUpThread = new AtomicReference<>();
        StartupWarmUp warmUp = StartupWarmUp.start(new String[] {"status"}, () -> {
            warmUpThread.set(Thread.currentThread());
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        AtomicInteger exitCode = new AtomicInteger(-1);
        Thread command = new Thread(() -> exitCode.set(commandLine(warmUp, new StringWriter())
                .execute("--home", temp.resolve("missing").toString(), "status")));
        command.start();
        while (command.getState() != Thread.State.WAITING && command.isAlive()) {
            Thread.onSpinWait();
        }

        assertThat(command.isAlive()).as("the command waits for the warm-up").isTrue();
        assertThat(exitCode).hasValue(-1);
        release.countDown();
        command.join();
        assertThat(exitCode).hasValue(1); // the missing home: the command ran and said so
        assertThat(warmUpThread.get().isDaemon()).isTrue();
        assertThat(warmUpThread.get().getName()).isEqualTo("mnemo-warm-up");
    }

    @Test
    void failingWarmUp_isIgnoredAndTheCommandRuns() {
        StartupWarmUp warmUp = StartupWarmUp.start(new String[] {"status"}, () -> {
            throw new IllegalStateException("broken warm-up");
        });
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = commandLine(warmUp, out);
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("--home", temp.resolve("missing").toString(), "status");

        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("does not exist").doesNotContain("broken warm-up");
    }

    @Test
    void realWarmUp_statusPrintsWhatItPrintsWithout() {
        String home = temp.resolve("home").toString();
        commandLine(StartupWarmUp.none(), new StringWriter()).execute("--home", home, "note", "builds use gradle 8");
        StringWriter warmedUp = new StringWriter();
        StringWriter plain = new StringWriter();

        int code = commandLine(StartupWarmUp.start(new String[] {"status"}), warmedUp).execute("--home", home, "status");
        commandLine(StartupWarmUp.none(), plain).execute("--home", home, "status");

        assertThat(code).isZero();
        assertThat(warmedUp.toString()).startsWith("Home:                " + home).isEqualTo(plain.toString());
    }

    private CommandLine commandLine(StartupWarmUp warmUp, StringWriter out) {
        CommandLine commandLine = MnemoCli.commandLine(cli(), warmUp);
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(new StringWriter()));
        return commandLine;
    }

    private MnemoCli cli() {
        return new MnemoCli(Map.of(), temp.resolve("user").toString(), env -> Optional.empty());
    }
}
