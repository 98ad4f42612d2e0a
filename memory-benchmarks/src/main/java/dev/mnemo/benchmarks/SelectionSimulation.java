package dev.mnemo.benchmarks;

import dev.mnemo.SelectionPolicy;
import dev.mnemo.spi.FairSelection;
import dev.mnemo.spi.Phase2SelectionParams;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;

/**
 * The citation loop of Phase 2's selection, simulated for a year under both policies (issue 38):
 * not a timing but what each policy does to which memories are consolidated.
 *
 * <p>Every day {@link #NEW_PER_DAY} memories are extracted, each with a hidden importance (log-normal,
 * σ = 1); a consolidation selects {@link #SELECTION} of the eligible memories (Codex's eligibility:
 * used, or never used but extracted, within {@link #MAX_UNUSED_DAYS} days); then the day's answers cite
 * {@link #CITATIONS_PER_DAY} memories, each drawn in proportion to importance but only among the
 * memories selected that day, since a model cites only what the consolidated folder holds. That is
 * the feedback loop. {@code CODEX} ranks with {@link FairSelection#codexOrder()} (the Java form of the
 * stores' SQL), {@code FAIR} with {@link FairSelection#select} (half-life 30 days, 10 % kept for new
 * memories, the defaults); both see the same memories, drawn from {@link #SEED}. It runs in memory,
 * not on a store: a store returns the same rows (the testkit's contract checks both rankings), and a
 * year of writes on SQLite would take minutes for nothing the figures need.
 *
 * <p>Three lines, FAIR measured against CODEX as the reference, ratio FAIR over CODEX (higher is
 * better for all three):
 * <ul>
 *   <li>{@code selection_sim_new_reached}: percent of the year's memories ever selected;</li>
 *   <li>{@code selection_sim_top_decile_reached}: the same for the tenth most important;</li>
 *   <li>{@code selection_sim_top_decile_days}: median days in the selection of that tenth.</li>
 * </ul>
 */
public final class SelectionSimulation {

    static final long SEED = 38;
    static final int DAYS = 365;
    static final int NEW_PER_DAY = 20;
    static final int CITATIONS_PER_DAY = 200;
    static final int SELECTION = 256;
    static final int MAX_UNUSED_DAYS = 30;
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    /** What one policy did over the year. */
    record Outcome(double newReachedPercent, double topDecileReachedPercent, double topDecileMedianDays,
            double reachedTopDecileMedianDays) {
    }

    /** One memory's state in the simulation. */
    private static final class Memory {
        final String id;
        final double importance;
        final Instant extractedAt;
        int usage;
        Optional<Instant> lastUsage = Optional.empty();
        boolean everSelected;
        int daysSelected;

        Memory(String id, double importance, Instant extractedAt) {
            this.id = id;
            this.importance = importance;
            this.extractedAt = extractedAt;
        }

        FairSelection.Candidate candidate() {
            return new FairSelection.Candidate(id, usage, lastUsage, extractedAt, everSelected);
        }
    }

    private SelectionSimulation() {}

    /** Prints the three summary lines. */
    public static void main(String[] args) {
        measure(name -> true).forEach(System.out::println);
    }

    /** Runs the simulation when {@code selected} accepts {@code SelectionSimulation.year}; summary lines. */
    static List<String> measure(Predicate<String> selected) {
        if (!selected.test("SelectionSimulation.year")) {
            return List.of();
        }
        Outcome codex = run(SelectionPolicy.CODEX);
        Outcome fair = run(SelectionPolicy.FAIR);
        return List.of(
                line("selection_sim_new_reached", fair.newReachedPercent(), codex.newReachedPercent(), "percent"),
                line("selection_sim_top_decile_reached", fair.topDecileReachedPercent(),
                        codex.topDecileReachedPercent(), "percent"),
                line("selection_sim_top_decile_days", fair.topDecileMedianDays(), codex.topDecileMedianDays(),
                        "days"),
                line("selection_sim_top_decile_days_once_in", fair.reachedTopDecileMedianDays(),
                        codex.reachedTopDecileMedianDays(), "days"));
    }

    /** A year under {@code policy}, from {@link #SEED}. */
    static Outcome run(SelectionPolicy policy) {
        Random world = new Random(SEED);
        Random answers = new Random(SEED + 1);
        Phase2SelectionParams params = new Phase2SelectionParams(SELECTION, MAX_UNUSED_DAYS, policy, 30, 10);
        List<Memory> memories = new ArrayList<>();
        Map<String, Memory> byId = new HashMap<>();
        for (int day = 0; day < DAYS; day++) {
            Instant dayStart = START.plus(Duration.ofDays(day));
            // 1. The day's new memories, extracted from yesterday's sessions.
            for (int i = 0; i < NEW_PER_DAY; i++) {
                Memory memory = new Memory(String.format(Locale.ROOT, "m-%03d-%02d", day, i),
                        Math.exp(world.nextGaussian()), dayStart.minusSeconds(1 + world.nextInt(86_399)));
                memories.add(memory);
                byId.put(memory.id, memory);
            }
            // 2. The consolidation.
            List<Memory> chosen = select(policy, params, memories, dayStart).stream().map(c -> byId.get(c.threadId()))
                    .toList();
            chosen.forEach(memory -> {
                memory.everSelected = true;
                memory.daysSelected++;
            });
            // 3. The day's citations, only of what was consolidated, in proportion to importance.
            cite(chosen, dayStart, answers);
        }
        return outcome(memories);
    }

    private static List<FairSelection.Candidate> select(SelectionPolicy policy, Phase2SelectionParams params,
            List<Memory> memories, Instant now) {
        Instant cutoff = now.minus(Duration.ofDays(MAX_UNUSED_DAYS));
        List<FairSelection.Candidate> eligible = memories.stream().map(Memory::candidate)
                .filter(c -> !c.recency().isBefore(cutoff)).toList();
        if (policy == SelectionPolicy.FAIR) {
            return FairSelection.select(params, eligible, now);
        }
        return eligible.stream().sorted(FairSelection.codexOrder()).limit(params.limit()).toList();
    }

    private static void cite(List<Memory> selection, Instant dayStart, Random answers) {
        if (selection.isEmpty()) {
            return;
        }
        double[] cumulative = new double[selection.size()];
        double total = 0;
        for (int i = 0; i < cumulative.length; i++) {
            total += selection.get(i).importance;
            cumulative[i] = total;
        }
        for (int i = 0; i < CITATIONS_PER_DAY; i++) {
            int at = Arrays.binarySearch(cumulative, answers.nextDouble() * total);
            Memory cited = selection.get(Math.min(at < 0 ? -at - 1 : at, cumulative.length - 1));
            cited.usage++;
            Instant when = dayStart.plusSeconds(1 + answers.nextInt(86_399));
            if (cited.lastUsage.map(last -> last.isBefore(when)).orElse(true)) {
                cited.lastUsage = Optional.of(when);
            }
        }
    }

    private static Outcome outcome(List<Memory> memories) {
        long reached = memories.stream().filter(m -> m.everSelected).count();
        List<Memory> topDecile = memories.stream().sorted(Comparator.comparingDouble((Memory m) -> m.importance)
                .reversed()).limit(memories.size() / 10).toList();
        long topReached = topDecile.stream().filter(m -> m.everSelected).count();
        return new Outcome(100.0 * reached / memories.size(), 100.0 * topReached / topDecile.size(),
                medianDays(topDecile), medianDays(topDecile.stream().filter(m -> m.everSelected).toList()));
    }

    private static double medianDays(List<Memory> memories) {
        int[] days = memories.stream().mapToInt(m -> m.daysSelected).sorted().toArray();
        if (days.length == 0) {
            return 0;
        }
        return days.length % 2 == 1 ? days[days.length / 2] : (days[days.length / 2 - 1] + days[days.length / 2]) / 2.0;
    }

    private static String line(String metric, double fair, double codex, String unit) {
        return String.format(Locale.ROOT, "%s %.1f %s %.1f %s", metric, fair, unit, codex,
                codex == 0 ? "-" : String.format(Locale.ROOT, "%.2f", fair / codex));
    }
}
