package dev.mnemo.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Shared setup for the benchmarks: fixture rollouts, scratch folders and the reference CLIs. */
final class BenchSupport {

    private BenchSupport() {}

    /** The repository's {@code fixtures/codex-rollouts/full}, found above the working folder ({@code -Dmnemo.fixtures} overrides). */
    static List<Path> fullFixtureRollouts() {
        Path dir = fixturesDir().resolve("full");
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
            if (all.size() != 5) {
                throw new IllegalStateException("expected the five full fixture rollouts in " + dir + ", found " + all);
            }
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    static Path fixturesDir() {
        String override = System.getProperty("mnemo.fixtures");
        if (override != null) {
            return Path.of(override);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("fixtures/codex-rollouts");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("fixtures/codex-rollouts not found above " + Path.of("").toAbsolutePath()
                + "; run from the repository or pass -Dmnemo.fixtures=<dir>");
    }

    static Path scratch(String name) {
        try {
            return Files.createTempDirectory("mnemo-bench-" + name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs a command in {@code dir} and returns its standard output; fails on a non-zero exit. */
    static String run(Path dir, String... command) {
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            byte[] out = process.getInputStream().readAllBytes();
            int exit = process.waitFor();
            if (exit != 0 && !(command[0].equals("grep") && exit == 1)) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + exit + ": "
                        + new String(out, StandardCharsets.UTF_8));
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + List.of(command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + List.of(command), e);
        }
    }

    /** {@code git} with a fixed identity and no user or system configuration. */
    static String git(Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-c", "user.name=bench", "-c", "user.email=bench@example.com",
                "-c", "core.autocrlf=false", "-c", "commit.gpgsign=false"));
        command.addAll(List.of(args));
        return run(dir, command.toArray(String[]::new));
    }

    /** Copies the files of {@code from} (not its {@code .git}) into {@code to}. */
    static void copyTree(Path from, Path to) {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path rel = from.relativize(p);
                if (rel.startsWith(".git")) {
                    continue;
                }
                Path target = to.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
