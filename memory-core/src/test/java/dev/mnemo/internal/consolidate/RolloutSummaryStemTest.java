package dev.mnemo.internal.consolidate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RolloutSummaryStemTest {

    private static final String THREAD = "0194f5a6-89ab-7cde-8123-456789abcdef";

    // Codex storage_tests.rs

    @Test
    void rolloutSummaryFileStem_usesUuidTimestampAndHashWhenSlugMissing() {
        assertThat(RolloutSummaryStem.of(THREAD, Optional.empty())).isEqualTo("2025-02-11T15-35-19-jqmb");
    }

    @Test
    void rolloutSummaryFileStem_sanitizesAndTruncatesSlug() {
        String stem = RolloutSummaryStem.of(THREAD,
                Optional.of("Unsafe Slug/With Spaces & Symbols + EXTRA_LONG_12345_67890_ABCDE_fghij_klmno"));

        assertThat(stem).isEqualTo("2025-02-11T15-35-19-jqmb-unsafe_slug_with_spaces___symbols___extra_long_12345_67890_a");
        assertThat(stem.substring("2025-02-11T15-35-19-jqmb-".length())).hasSize(60);
    }

    @Test
    void rolloutSummaryFileStem_usesUuidTimestampAndHashWhenSlugIsEmpty() {
        assertThat(RolloutSummaryStem.of(THREAD, Optional.of(""))).isEqualTo("2025-02-11T15-35-19-jqmb");
        assertThat(RolloutSummaryStem.of(THREAD, Optional.of("///"))).isEqualTo("2025-02-11T15-35-19-jqmb");
    }

    // Mnemo

    @Test
    void slug_trailingUnderscoresAreTrimmedAndNonAsciiBecomesUnderscore() {
        assertThat(RolloutSummaryStem.sanitizeSlug("Fix-Flaky_Test!!")).isEqualTo("fix_flaky_test");
        assertThat(RolloutSummaryStem.sanitizeSlug("café déjà")).isEqualTo("caf__d_j");
        assertThat(RolloutSummaryStem.sanitizeSlug("a😀b")).isEqualTo("a_b");
    }

    @Test
    void hash_isLowThirtyTwoBitsOfTheUuidInBase62() {
        // 0x89abcdef = 2,309,737,967; mod 62^4 = 4,629,551 = 19*62^3 + 26*62^2 + 22*62 + 11 -> j q m b
        assertThat(0x89abcdefL % 14_776_336L).isEqualTo(19L * 238_328 + 26 * 3_844 + 22 * 62 + 11);
        assertThat(RolloutSummaryStem.hash4(THREAD)).isEqualTo("jqmb");
        assertThat(RolloutSummaryStem.hash4("00000000-0000-7000-8000-000000000000")).isEqualTo("0000");
    }

    @Test
    void nonUuidIdsUseTheUpdateTimeAndAStringHash() {
        Instant updated = Instant.parse("2026-01-02T03:04:05.678Z");

        String stem = RolloutSummaryStem.of("my-session-1", Optional.of("Demo"), updated);

        assertThat(stem).matches("2026-01-02T03-04-05-[0-9a-zA-Z]{4}-demo");
        assertThat(RolloutSummaryStem.of("my-session-1", Optional.empty(), updated)).isEqualTo(stem.substring(0, 24));
        assertThat(RolloutSummaryStem.hash4("my-session-1")).isNotEqualTo(RolloutSummaryStem.hash4("my-session-2"));
        assertThatThrownBy(() -> RolloutSummaryStem.of("my-session-1", Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("my-session-1");
    }

    @Test
    void uuidWithoutV7TimestampFallsBackToUpdateTime() {
        Instant updated = Instant.parse("2026-05-06T07:08:09Z");
        String v4 = "9f1c2b3a-4d5e-4f60-8a7b-0c1d2e3f4a5b";

        assertThat(RolloutSummaryStem.of(v4, Optional.empty(), updated)).startsWith("2026-05-06T07-08-09-");
        assertThat(RolloutSummaryStem.of(THREAD, Optional.empty(), updated)).isEqualTo("2025-02-11T15-35-19-jqmb");
    }
}
