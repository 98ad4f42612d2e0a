package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parallel-calls proof for a real MCP client: a scripted model asks for {@link #CALLS} memory
 * tool calls in one response, in each of many sessions of the client, some sessions at once; every
 * answer must come back to the model, each the answer to its own call, and every session must end.
 * The client-specific parts (how the model asks, how the client sends results back) stay in each
 * client's test; this holds the memory the calls read, the calls, the session runner and the check.
 */
final class ParallelToolCalls {

    /** Tool calls in the one model response. */
    static final int CALLS = 8;

    /** The summary's lines; the last one is the line a test looks for in what reaches the model. */
    static final List<String> SUMMARY_LINES = summaryLines();

    private static final String[] WORDS = {"kiwi", "lynx", "opal", "fjord", "quill", "ember", "tundra", "cobalt"};
    private static final Pattern SESSION_TAG = Pattern.compile("session-tag-(\\d+)-end");

    /** One call of the batch: the MCP tool, its arguments, and a word only its own answer holds. */
    record Call(int index, String tool, ObjectNode arguments, String expected) {}

    /** How one session of the client went. */
    record Session(int number, boolean ended, int exitCode, Duration took, String stdout, String stderr) {}

    /**
     * How a client's requests carry answers: the prefix the scripted model gives call ids, which
     * recorded requests are model turns, and the call ids and answer texts a turn carries.
     */
    record Client(String idPrefix, Predicate<ScriptedModelServer.Request> turns,
            Function<ScriptedModelServer.Request, Map<String, String>> answers) {}

    /** Starts the client for session {@code number}, in {@code dir} (its own folder). */
    @FunctionalInterface
    interface Launcher {
        ProcessBuilder session(int number, Path dir) throws IOException;
    }

    /** Sessions of a client in one proof. */
    static final int SESSIONS = 20;
    /** Sessions running at once. */
    static final int AT_ONCE = 4;
    /** How long one session may take before it counts as hung. */
    static final Duration SESSION_TIMEOUT = Duration.ofSeconds(45);

    private ParallelToolCalls() {}

    /**
     * Runs {@link #SESSIONS} sessions of the client, {@link #AT_ONCE} at a time, against
     * {@code model} (whose script asks for the batch and then says {@link #lastWords}), and asserts
     * that every answer reached the model and every session ended, saying so.
     */
    static void assertEveryAnswerArrives(Path dir, ScriptedModelServer model, Client client, Launcher launcher)
            throws InterruptedException {
        List<Session> sessions = run(dir.resolve("sessions"), SESSIONS, AT_ONCE, SESSION_TIMEOUT, launcher);
        List<String> problems = problems(sessions, model.requests().stream().filter(client.turns()).toList(),
                client.answers(), client.idPrefix());

        assertThat(model.failures()).as("the scripted model's own failures").isEmpty();
        assertThat(problems).as("lost answers and hung sessions in %d sessions of %d parallel calls each",
                SESSIONS, CALLS).isEmpty();
        assertThat(sessions).allSatisfy(s -> assertThat(s.stdout()).contains(lastWords(s.number())));
    }

    /** What the scripted model says in session {@code session} once the answers came back. */
    static String lastWords(int session) {
        return "Session " + session + " done.";
    }

    /** The prompt of session {@code session}: a request to look up facts, carrying the session's tag. */
    static String prompt(int session) {
        return "Look these facts up in memory, all at once. " + sessionTag(session);
    }

    /**
     * A home whose memory the calls read: a summary of {@link #SUMMARY_LINES}, a handbook with one
     * line per search, and a skill per read.
     */
    static Path plantHome(Path dir) throws IOException {
        Path root = Files.createDirectories(dir.resolve("memories"));
        Files.writeString(root.resolve("memory_summary.md"), String.join("\n", SUMMARY_LINES) + "\n");
        StringBuilder handbook = new StringBuilder("# Handbook\n\n## Facts\n");
        for (Call call : calls()) {
            if (call.tool().equals("memories_search")) {
                handbook.append("- ").append(call.expected()).append(": a fact only this search finds\n");
            } else {
                Path skill = Files.createDirectories(root.resolve("skills/s" + call.index()));
                Files.writeString(skill.resolve("SKILL.md"), "# Skill " + call.index() + "\n" + call.expected()
                        + ": a step only this read returns\n");
            }
        }
        Files.writeString(root.resolve("MEMORY.md"), handbook);
        return dir;
    }

    /** The batch: searches (even indexes) and reads (odd ones), each answer holding its own word. */
    static List<Call> calls() {
        List<Call> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            String expected = "pf" + i + "-" + WORDS[i];
            ObjectNode arguments = ScriptedModelServer.JSON.createObjectNode();
            if (i % 2 == 0) {
                arguments.putArray("queries").add(expected);
                calls.add(new Call(i, "memories_search", arguments, expected));
            } else {
                arguments.put("path", "skills/s" + i + "/SKILL.md");
                calls.add(new Call(i, "memories_read", arguments, expected));
            }
        }
        return List.copyOf(calls);
    }

    /** The id of call {@code index} in session {@code session}, with the client's usual prefix. */
    static String callId(String prefix, int session, int index) {
        return prefix + "s" + session + "_c" + index;
    }

    /** Whether {@code answers} (call id to answer) holds an answer to any call of session {@code session}'s batch. */
    static boolean carriesAnswers(Map<String, String> answers, String idPrefix, int session) {
        return calls().stream().anyMatch(call -> answers.containsKey(callId(idPrefix, session, call.index())));
    }

    /** The words a prompt carries so the scripted model knows the session. */
    static String sessionTag(int session) {
        return "session-tag-" + session + "-end";
    }

    /** The session a request belongs to, from the tag in its prompt; empty for requests without one. */
    static OptionalInt sessionOf(ScriptedModelServer.Request request) {
        Matcher tag = SESSION_TAG.matcher(request.text());
        return tag.find() ? OptionalInt.of(Integer.parseInt(tag.group(1))) : OptionalInt.empty();
    }

    /**
     * Runs sessions {@code 0..sessions-1} of a client, at most {@code parallel} at once, each in a
     * folder of its own under {@code dir}; a session still running after {@code timeout} is killed
     * (with the processes it started) and reported as not ended.
     */
    static List<Session> run(Path dir, int sessions, int parallel, Duration timeout, Launcher launcher)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        try {
            List<Future<Session>> futures = new ArrayList<>();
            for (int n = 0; n < sessions; n++) {
                int number = n;
                futures.add(pool.submit(() -> runOne(dir.resolve("session-" + number), number, timeout, launcher)));
            }
            List<Session> done = new ArrayList<>();
            for (Future<Session> future : futures) {
                try {
                    done.add(future.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("could not run a session", e.getCause());
                }
            }
            return done;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Session runOne(Path dir, int number, Duration timeout, Launcher launcher)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        ProcessBuilder builder = launcher.session(number, dir)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        long start = System.nanoTime();
        Process process = builder.start();
        boolean ended;
        try {
            ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            if (process.isAlive()) {
                kill(process);
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        return new Session(number, ended, ended ? process.exitValue() : -1, took,
                Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Kills {@code process} and every process it started, and waits a little for them to go. */
    static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception stillGoing) {
            // reported by the caller as a session that did not end
        }
    }

    /**
     * What went wrong, one line per problem (empty: every session ended with exit code 0, and the
     * first request of each session that carried any answer of the batch carried all of them, each
     * holding its own call's word). {@code answers} reads the call ids and answer texts a request
     * carries; {@code idPrefix} is the prefix the model gave the call ids.
     */
    static List<String> problems(List<Session> sessions, List<ScriptedModelServer.Request> requests,
            Function<ScriptedModelServer.Request, Map<String, String>> answers, String idPrefix) {
        List<String> problems = new ArrayList<>();
        for (Session session : sessions) {
            int n = session.number();
            Optional<Map<String, String>> carried = requests.stream()
                    .filter(r -> sessionOf(r).equals(OptionalInt.of(n)))
                    .map(answers)
                    .filter(found -> carriesAnswers(found, idPrefix, n))
                    .findFirst();
            if (!session.ended()) {
                problems.add("session " + n + " had not ended after " + session.took().toSeconds() + " s (killed);"
                        + (carried.isPresent() ? " the model got some answers"
                                : " no answer reached the model (a client sends them once it has all, so one lost"
                                        + " answer leaves it waiting)")
                        + "; client stderr tail: " + tail(session.stderr()));
            } else if (session.exitCode() != 0) {
                problems.add("session " + n + " exited with " + session.exitCode() + "; stderr tail: "
                        + tail(session.stderr()));
            }
            if (carried.isEmpty()) {
                if (session.ended()) {
                    problems.add("session " + n + ": no request carried any answer of the batch");
                }
                continue;
            }
            for (Call call : calls()) {
                String id = callId(idPrefix, n, call.index());
                String answer = carried.get().get(id);
                if (answer == null) {
                    problems.add("session " + n + ": the answer to " + id + " (" + call.tool() + ") never reached the model");
                } else if (!answer.contains(call.expected())) {
                    problems.add("session " + n + ": the answer to " + id + " lacks " + call.expected() + ": "
                            + tail(answer));
                }
            }
        }
        return problems;
    }

    private static String tail(String text) {
        String flat = text.strip().replace('\n', ' ');
        return flat.length() <= 400 ? flat : "…" + flat.substring(flat.length() - 400);
    }

    private static List<String> summaryLines() {
        List<String> lines = new ArrayList<>(List.of("v1", "# Summary of what earlier sessions learned", ""));
        String[] topics = {"builds", "tests", "releases", "reviews", "deployments", "databases", "dependencies",
            "logging", "formatting", "branches", "documentation", "benchmarks", "secrets", "migrations"};
        for (String topic : topics) {
            lines.add("- " + topic + ": the team's settled way of handling " + topic
                    + " lives in MEMORY.md under its own heading; read it before changing anything there.");
        }
        lines.add("- SUMMARY-LAST-LINE-5d1e: the last line of the summary, which the model must see too.");
        return List.copyOf(lines);
    }
}
