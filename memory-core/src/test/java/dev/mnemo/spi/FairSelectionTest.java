package dev.mnemo.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.mnemo.SelectionPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FairSelectionTest {

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

    @Test
    void aFullSelection_keepsAPlaceForTheNewestNeverSelectedMemory_overAHeavilyCitedOldOne() {
        List<FairSelection.Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            candidates.add(cited("cited-" + i, 50 + i, daysAgo(1), daysAgo(20)));
        }
        candidates.add(fresh("new-older", daysAgo(3)));
        candidates.add(fresh("new-newest", daysAgo(1)));

        List<String> chosen = ids(FairSelection.select(fair(10, 30, 10), candidates, NOW));

        assertThat(chosen).hasSize(10).contains("new-newest").doesNotContain("new-older", "cited-0");
        assertThat(chosen.get(9)).as("the reserved place comes after the ranked ones").isEqualTo("new-newest");
    }

    @Test
    void withoutNeverSelectedMemories_theReservedPlacesFollowTheRanking() {
        List<FairSelection.Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            candidates.add(cited("cited-" + i, i + 1, daysAgo(1), daysAgo(20)));
        }

        assertThat(ids(FairSelection.select(fair(3, 30, 50), candidates, NOW)))
                .containsExactly("cited-4", "cited-3", "cited-2");
    }

    @Test
    void aNeverSelectedMemoryTheRankingTakes_leavesTheReservedPlaceToAnother() {
        List<FairSelection.Candidate> candidates = List.of(
                new FairSelection.Candidate("new-but-cited", 9, Optional.of(daysAgo(0)), daysAgo(2), false),
                cited("old", 5, daysAgo(1), daysAgo(20)),
                cited("older", 4, daysAgo(1), daysAgo(20)),
                fresh("new", daysAgo(1)));

        assertThat(ids(FairSelection.select(fair(3, 30, 33), candidates, NOW)))
                .containsExactly("new-but-cited", "old", "new");
    }

    @Test
    void withNoShareAndALongHalfLife_itSelectsWhatCodexSelects() {
        Random random = new Random(38);
        List<FairSelection.Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int uses = random.nextInt(4) == 0 ? 0 : random.nextInt(10);
            Optional<Instant> lastUse = uses == 0 ? Optional.empty() : Optional.of(daysAgo(random.nextInt(30)));
            candidates.add(new FairSelection.Candidate("t-" + i, uses, lastUse, daysAgo(random.nextInt(30)),
                    random.nextBoolean()));
        }
        List<FairSelection.Candidate> codex = new ArrayList<>(candidates);
        codex.sort(FairSelection.codexOrder());

        assertThat(FairSelection.select(fair(64, 3650, 0), candidates, NOW)).isEqualTo(codex.subList(0, 64));
    }

    @Test
    void decay_letsAFreshCitationOutrankAnOldLargeCount() {
        FairSelection.Candidate oldLarge = cited("old-large", 8, daysAgo(90), daysAgo(120));
        FairSelection.Candidate freshSmall = cited("fresh-small", 2, daysAgo(0), daysAgo(5));
        List<FairSelection.Candidate> both = List.of(oldLarge, freshSmall);

        assertThat(FairSelection.decayedUsage(oldLarge, 30, NOW)).isCloseTo(1.0, within(1e-9));
        assertThat(ids(FairSelection.select(fair(1, 30, 0), both, NOW))).containsExactly("fresh-small");
        assertThat(both.stream().sorted(FairSelection.codexOrder()).map(FairSelection.Candidate::threadId).toList())
                .as("Codex keeps the old count on top").containsExactly("old-large", "fresh-small");
    }

    @Test
    void theSameCandidatesInAnyOrder_giveTheSameSelection() {
        List<FairSelection.Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            candidates.add(i % 3 == 0 ? fresh("t-" + i, daysAgo(i % 4)) : cited("t-" + i, i % 5, daysAgo(i % 2),
                    daysAgo(10)));
        }
        List<FairSelection.Candidate> first = FairSelection.select(fair(12, 30, 25), candidates, NOW);

        Collections.shuffle(candidates, new Random(7));

        assertThat(FairSelection.select(fair(12, 30, 25), candidates, NOW)).isEqualTo(first);
    }

    @Test
    void aSelectionThatHoldsEveryCandidate_takesThemAll_andALimitOfZeroTakesNone() {
        List<FairSelection.Candidate> candidates = List.of(fresh("a", daysAgo(1)), cited("b", 1, daysAgo(1), daysAgo(2)));

        assertThat(ids(FairSelection.select(fair(5, 30, 10), candidates, NOW))).containsExactly("b", "a");
        assertThat(FairSelection.select(fair(0, 30, 10), candidates, NOW)).isEmpty();
    }

    @Test
    void theReserve_isTheShareOfTheLimitRoundedUp() {
        assertThat(fair(256, 30, 10).reservedForNew()).isEqualTo(26);
        assertThat(fair(1, 30, 1).reservedForNew()).isEqualTo(1);
        assertThat(fair(256, 30, 0).reservedForNew()).isZero();
        assertThat(fair(4096, 30, 50).reservedForNew()).isEqualTo(2048);
    }

    @Test
    void badParameters_areRefusedNamingTheValue() {
        assertThatThrownBy(() -> fair(-1, 30, 10)).hasMessage("limit must not be negative, was -1");
        assertThatThrownBy(() -> new Phase2SelectionParams(1, -2, SelectionPolicy.FAIR, 30, 10))
                .hasMessage("maxUnusedDays must not be negative, was -2");
        assertThatThrownBy(() -> fair(1, 0, 10)).hasMessage("halfLifeDays must be at least 1, was 0");
        assertThatThrownBy(() -> fair(1, 30, 101)).hasMessage("newSharePercent must be between 0 and 100, was 101");
    }

    private static Phase2SelectionParams fair(int limit, int halfLifeDays, int sharePercent) {
        return new Phase2SelectionParams(limit, 30, SelectionPolicy.FAIR, halfLifeDays, sharePercent);
    }

    private static FairSelection.Candidate cited(String id, int uses, Instant lastUse, Instant version) {
        return new FairSelection.Candidate(id, uses, Optional.of(lastUse), version, true);
    }

    private static FairSelection.Candidate fresh(String id, Instant version) {
        return new FairSelection.Candidate(id, 0, Optional.empty(), version, false);
    }

    private static Instant daysAgo(int days) {
        return NOW.minus(Duration.ofDays(days));
    }

    private static List<String> ids(List<FairSelection.Candidate> chosen) {
        return chosen.stream().map(FairSelection.Candidate::threadId).toList();
    }
}
