package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code [memories]} keys of long-session extraction, budgets and fair selection. */
class LongSessionConfigTest {

    @TempDir
    Path dir;

    @Test
    void defaults_areCodexSelectionAndNoDailyBudget() {
        MemoriesConfig c = MemoriesConfig.defaults();

        assertThat(c.maxExtractionTokensPerRollout()).isEqualTo(250_000);
        assertThat(c.maxExtractionTokensPerDay()).isZero();
        assertThat(c.hasDailyExtractionBudget()).isFalse();
        assertThat(c.selectionPolicy()).isEqualTo(SelectionPolicy.CODEX);
        assertThat(c.selectionHalfLifeDays()).isEqualTo(30);
        assertThat(c.selectionNewSharePercent()).isEqualTo(10);
    }

    @Test
    void toml_readsEveryKey() throws Exception {
        Path file = Files.writeString(dir.resolve("config.toml"), """
                [memories]
                max_extraction_tokens_per_rollout = 40000
                max_extraction_tokens_per_day = 1000000
                selection_policy = "fair"
                selection_half_life_days = 14
                selection_new_share_percent = 20
                """);

        MemoriesConfig c = MemoriesConfig.load(file);

        assertThat(c.maxExtractionTokensPerRollout()).isEqualTo(40_000);
        assertThat(c.maxExtractionTokensPerDay()).isEqualTo(1_000_000);
        assertThat(c.hasDailyExtractionBudget()).isTrue();
        assertThat(c.selectionPolicy()).isEqualTo(SelectionPolicy.FAIR);
        assertThat(c.selectionHalfLifeDays()).isEqualTo(14);
        assertThat(c.selectionNewSharePercent()).isEqualTo(20);
        assertThat(c.toBuilder().build()).isEqualTo(c);
    }

    @Test
    void toml_unknownPolicy_namesKeyAndValue() throws Exception {
        Path file = Files.writeString(dir.resolve("config.toml"), "[memories]\nselection_policy = \"newest\"\n");

        assertThatThrownBy(() -> MemoriesConfig.load(file)).isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("memories.selection_policy").hasMessageContaining("\"newest\"");
    }

    @Test
    void builder_clampsOutOfRangeValues_constructorRejectsThem() {
        MemoriesConfig c = MemoriesConfig.builder().maxExtractionTokensPerRollout(10).selectionNewSharePercent(90)
                .maxExtractionTokensPerDay(-1).build();

        assertThat(c.maxExtractionTokensPerRollout()).isEqualTo(1_000);
        assertThat(c.selectionNewSharePercent()).isEqualTo(50);
        assertThat(c.maxExtractionTokensPerDay()).isZero();
        assertThatThrownBy(() -> new MemoriesConfig(true, true, false, false, 256, 30, 10, 2, 6, 25,
                java.util.Optional.empty(), java.util.Optional.empty(), java.util.List.of("cli"), 8, 10, 30, 2500,
                Approval.AUTO, 10, 0, SelectionPolicy.CODEX, 30, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max_extraction_tokens_per_rollout must be within 1000..100000000, was 10");
    }
}
