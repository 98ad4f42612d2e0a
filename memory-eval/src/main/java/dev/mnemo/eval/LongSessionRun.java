package dev.mnemo.eval;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadMemory;
import dev.mnemo.llm.LanguageModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-session scenario: one session {@value #WINDOWS} times the model's context window
 * (at 4 bytes a token, at most {@value #MAX_SESSION_BYTES} bytes), with {@value #FACTS} facts
 * planted four each at its start, middle and end among long work logs, extracted by Phase 1 twice
 * in fresh homes: read in parts and merged (the default {@code max_extraction_tokens_per_rollout}),
 * and fitted by the tiers into one request as Codex does (the cap at its minimum, below one
 * request). A fact is recalled when its value is in the stored memory (summary or raw memory).
 * Runs only for a model whose context window is known.
 */
final class LongSessionRun {

    private static final Logger LOG = LoggerFactory.getLogger(LongSessionRun.class);

    static final String ID = "long-session";
    static final int WINDOWS = 10;
    static final int FACTS = 12;
    static final long MAX_SESSION_BYTES = 600_000;
    /** The smallest cap there is: below any real request, so extraction is one request. */
    private static final int ONE_REQUEST_CAP = 1_000;

    private static final List<String[]> PLANTED = List.of(
            new String[] {"staging database host", "db-kestrel-4117"},
            new String[] {"release branch", "rel-heron-2290"},
            new String[] {"feature flag for the new checkout", "ff-osprey-3381"},
            new String[] {"build cache bucket", "cache-plover-5524"},
            new String[] {"on-call rotation name", "rota-wren-6642"},
            new String[] {"metrics namespace", "ns-finch-7713"},
            new String[] {"service account for deploys", "sa-lark-8806"},
            new String[] {"queue for failed payments", "q-egret-9135"},
            new String[] {"canary cluster", "cl-swift-1478"},
            new String[] {"schema migration tag", "mig-ibis-2569"},
            new String[] {"artifact registry project", "reg-crane-3650"},
            new String[] {"load test profile", "lt-rook-4741"});

    private final LanguageModel model;
    private final ScenarioFolder folder;

    LongSessionRun(LanguageModel model, Path runDir) {
        this.model = model;
        this.folder = new ScenarioFolder(runDir, ID);
    }

    /** Both conditions, or nothing when the model's window is unknown. */
    EvalReport.LongSession run() {
        int window = model.contextWindowTokens().orElse(0);
        if (window <= 0) {
            return EvalReport.LongSession.notRun();
        }
        List<Script.Turn> turns = turns(Math.min(MAX_SESSION_BYTES, (long) WINDOWS * window * 4));
        long bytes = turns.stream().mapToLong(t -> t.user().length() + t.assistant().length()).sum();
        List<EvalReport.LongSessionCondition> conditions = new ArrayList<>();
        for (Map.Entry<String, MemoriesConfig> condition : Map.of("chunked", MemoriesConfig.builder().build(),
                "tiered_fit", MemoriesConfig.builder().maxExtractionTokensPerRollout(ONE_REQUEST_CAP).build())
                .entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
            conditions.add(run(condition.getKey(), condition.getValue(), turns));
        }
        return new EvalReport.LongSession(window, bytes, FACTS, conditions);
    }

    private EvalReport.LongSessionCondition run(String name, MemoriesConfig config, List<Script.Turn> turns) {
        try (EvalHome home = EvalHome.fresh(folder.resolve(name).resolve("home"), model, config)) {
            String threadId = ID + "-" + name;
            home.record(SessionContext.root(threadId), new Script.PastSession(ID, 0, false, turns));
            EvalHome.Phase1Only phase1 = home.runPhase1();
            String memory = home.engine().admin().memory(threadId)
                    .map(m -> m.rolloutSummary() + "\n" + m.rawMemory()).orElse("");
            int recalled = (int) PLANTED.stream().filter(f -> Grader.contains(memory, f[1])).count();
            EvalReport.LongSessionCondition result = new EvalReport.LongSessionCondition(name, recalled,
                    phase1.requests(), phase1.usage().inputTokens(), phase1.usage().totalTokens(),
                    home.engine().admin().memory(threadId).map(ThreadMemory::rolloutSummary)
                            .map(LongSessionRun::coverage).orElse(""));
            LOG.info("eval: long session, {}: {} of {} facts in memory, {} requests, {} input tokens", name, recalled,
                    FACTS, result.requests(), result.inputTokens());
            return result;
        }
    }

    /** The summary's last line when it says what the memory covers (a memory read in parts). */
    private static String coverage(String summary) {
        int at = summary.lastIndexOf("Covered:");
        return at < 0 ? "" : summary.substring(at).strip();
    }

    /** About {@code targetBytes} of turns: work logs, with the facts at the start, the middle and the end. */
    static List<Script.Turn> turns(long targetBytes) {
        String log = "step ok: compiled module, ran checks, no warnings; cache warm, artifacts uploaded. ".repeat(12);
        long turnBytes = 60 + 2L * log.length();
        int count = (int) Math.max(FACTS * 3, targetBytes / turnBytes);
        List<Integer> plantedAt = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            plantedAt.add(i);
        }
        for (int i = 0; i < 4; i++) {
            plantedAt.add(count / 2 - 2 + i);
        }
        for (int i = 0; i < 4; i++) {
            plantedAt.add(count - 4 + i);
        }
        List<Script.Turn> turns = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int fact = plantedAt.indexOf(i);
            if (fact >= 0) {
                String[] f = PLANTED.get(fact);
                turns.add(new Script.Turn("Please remember for future sessions: the " + f[0] + " is " + f[1] + ".",
                        "Noted: the " + f[0] + " is " + f[1] + "."));
            } else {
                turns.add(new Script.Turn(String.format(Locale.ROOT, "Build log of step %d:%n", i) + log,
                        String.format(Locale.ROOT, "Step %d looks fine: ", i) + log));
            }
        }
        return turns;
    }

    /** The planted values, for a test double that lists what it sees. */
    static List<String> values() {
        return PLANTED.stream().map(f -> f[1]).toList();
    }
}
