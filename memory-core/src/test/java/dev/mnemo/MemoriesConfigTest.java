package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoriesConfigTest {

    @TempDir
    Path dir;

    @Test
    void defaults_areCodexDefaultsPlusMnemoKeys() {
        MemoriesConfig c = MemoriesConfig.defaults();
        assertThat(c.generateMemories()).isTrue();
        assertThat(c.useMemories()).isTrue();
        assertThat(c.dedicatedTools()).isFalse();
        assertThat(c.disableOnExternalContext()).isFalse();
        assertThat(c.maxRawMemoriesForConsolidation()).isEqualTo(256);
        assertThat(c.maxUnusedDays()).isEqualTo(30);
        assertThat(c.maxRolloutAgeDays()).isEqualTo(10);
        assertThat(c.maxRolloutsPerStartup()).isEqualTo(2);
        assertThat(c.minRolloutIdleHours()).isEqualTo(6);
        assertThat(c.minRateLimitRemainingPercent()).isEqualTo(25);
        assertThat(c.extractModel()).isEmpty();
        assertThat(c.consolidationModel()).isEmpty();
        assertThat(c.memorySources()).containsExactly("cli", "vscode", "app");
        assertThat(c.phase1Concurrency()).isEqualTo(8);
        assertThat(c.historyRetention()).isEqualTo(10);
        assertThat(c.consolidationTimeoutMinutes()).isEqualTo(30);
        assertThat(c.summaryTokenLimit()).isEqualTo(2500);
    }

    // Codex: memories_config_clamps_count_limits_to_nonzero_values
    @Test
    void clampsCountLimitsToNonzeroValues() {
        MemoriesConfig c = MemoriesConfig.builder().maxRawMemoriesForConsolidation(0).maxRolloutsPerStartup(0).build();
        assertThat(c.maxRawMemoriesForConsolidation()).isEqualTo(1);
        assertThat(c.maxRolloutsPerStartup()).isEqualTo(1);
    }

    // Codex: memories_config_clamps_rate_limit_remaining_threshold
    @Test
    void clampsRateLimitRemainingThreshold() {
        assertThat(MemoriesConfig.builder().minRateLimitRemainingPercent(101).build().minRateLimitRemainingPercent())
                .isEqualTo(100);
        assertThat(MemoriesConfig.builder().minRateLimitRemainingPercent(-1).build().minRateLimitRemainingPercent())
                .isEqualTo(0);
    }

    @Test
    void clampsEveryRangeAtBothEnds() {
        MemoriesConfig high = MemoriesConfig.builder().maxRawMemoriesForConsolidation(10_000).maxUnusedDays(1000)
                .maxRolloutAgeDays(1000).maxRolloutsPerStartup(1000).minRolloutIdleHours(1000).phase1Concurrency(1000)
                .historyRetention(100_000).consolidationTimeoutMinutes(10_000).summaryTokenLimit(1_000_000).build();
        assertThat(List.of(high.maxRawMemoriesForConsolidation(), high.maxUnusedDays(), high.maxRolloutAgeDays(),
                high.maxRolloutsPerStartup(), high.minRolloutIdleHours(), high.phase1Concurrency(),
                high.historyRetention(), high.consolidationTimeoutMinutes(), high.summaryTokenLimit()))
                .containsExactly(4096, 365, 90, 128, 48, 64, 1000, 240, 20000);
        MemoriesConfig low = MemoriesConfig.builder().maxUnusedDays(-5).maxRolloutAgeDays(-5).minRolloutIdleHours(0)
                .phase1Concurrency(0).historyRetention(-1).consolidationTimeoutMinutes(0).summaryTokenLimit(1).build();
        assertThat(List.of(low.maxUnusedDays(), low.maxRolloutAgeDays(), low.minRolloutIdleHours(),
                low.phase1Concurrency(), low.historyRetention(), low.consolidationTimeoutMinutes(),
                low.summaryTokenLimit()))
                .containsExactly(0, 0, 1, 1, 0, 1, 500);
    }

    @Test
    void constructor_rejectsOutOfRangeValuesNamingTheKey() {
        MemoriesConfig d = MemoriesConfig.defaults();
        assertThatThrownBy(() -> new MemoriesConfig(true, true, false, false, 0, 30, 10, 2, 6, 25, Optional.empty(),
                Optional.empty(), d.memorySources(), 8, 10, 30, 2500))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max_raw_memories_for_consolidation");
    }

    @Test
    void toBuilder_roundTrips() {
        MemoriesConfig c = MemoriesConfig.builder().extractModel("small").consolidationModel("big").useMemories(false)
                .memorySources(List.of("app")).build();
        assertThat(c.toBuilder().build()).isEqualTo(c);
    }

    @Test
    void load_missingFileGivesDefaults() {
        assertThat(MemoriesConfig.load(dir.resolve("config.toml"))).isEqualTo(MemoriesConfig.defaults());
    }

    @Test
    void load_readsEveryKeyAndIgnoresOtherTables() throws IOException {
        Path file = write("""
                model = "gpt-5"
                [features]
                memories = true
                [memories]
                generate_memories = false
                use_memories = false
                dedicated_tools = true
                disable_on_external_context = true
                max_raw_memories_for_consolidation = 64
                max_unused_days = 7
                max_rollout_age_days = 3
                max_rollouts_per_startup = 16
                min_rollout_idle_hours = 12
                min_rate_limit_remaining_percent = 40
                extract_model = "mini"
                consolidation_model = "large"
                memory_sources = ["cli", "app"]
                phase1_concurrency = 4
                history_retention = 0
                consolidation_timeout_minutes = 10
                summary_token_limit = 3000
                [other]
                anything = [1, 2]
                """);
        MemoriesConfig c = MemoriesConfig.load(file);
        assertThat(c).isEqualTo(new MemoriesConfig(false, false, true, true, 64, 7, 3, 16, 12, 40, Optional.of("mini"),
                Optional.of("large"), List.of("cli", "app"), 4, 0, 10, 3000));
    }

    @Test
    void load_acceptsCodexAliasForExternalContext() throws IOException {
        Path file = write("[memories]\nno_memories_if_mcp_or_web_search = true\n");
        assertThat(MemoriesConfig.load(file).disableOnExternalContext()).isTrue();
    }

    @Test
    void load_clampsOutOfRangeValuesLikeTheBuilder() throws IOException {
        Path file = write("[memories]\nmax_rollouts_per_startup = 0\nmin_rate_limit_remaining_percent = 101\n");
        MemoriesConfig c = MemoriesConfig.load(file);
        assertThat(c.maxRolloutsPerStartup()).isEqualTo(1);
        assertThat(c.minRateLimitRemainingPercent()).isEqualTo(100);
    }

    @Test
    void load_unknownKeyInMemoriesNamesTheKeyAndTheFile() throws IOException {
        Path file = write("[memories]\nmax_rollouts = 3\n");
        assertThatThrownBy(() -> MemoriesConfig.load(file))
                .isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("memories.max_rollouts")
                .hasMessageContaining(file.toString());
    }

    @Test
    void load_wrongTypeNamesTheKeyTheFileAndWhatWasExpected() throws IOException {
        Path file = write("[memories]\nmax_unused_days = \"thirty\"\n");
        assertThatThrownBy(() -> MemoriesConfig.load(file))
                .isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("memories.max_unused_days")
                .hasMessageContaining(file.toString())
                .hasMessageContaining("must be an integer, was a string");
        Path bools = write("[memories]\nuse_memories = 1\n");
        assertThatThrownBy(() -> MemoriesConfig.load(bools)).hasMessageContaining("memories.use_memories").hasMessageContaining("must be a boolean");
        Path list = write("[memories]\nmemory_sources = \"cli\"\n");
        assertThatThrownBy(() -> MemoriesConfig.load(list)).hasMessageContaining("memories.memory_sources");
        Path floats = write("[memories]\nsummary_token_limit = 2.5\n");
        assertThatThrownBy(() -> MemoriesConfig.load(floats)).hasMessageContaining("memories.summary_token_limit");
    }

    @Test
    void load_brokenTomlNamesTheFileAndLeavesItUntouched() throws IOException {
        String broken = "[memories\nuse_memories = true\n";
        Path file = write(broken);
        assertThatThrownBy(() -> MemoriesConfig.load(file))
                .isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("not valid TOML");
        assertThat(Files.readString(file)).isEqualTo(broken);
    }

    @Test
    void load_brokenTomlNamesTheLine() throws IOException {
        Path file = write("# Mnemo\n[memories]\nmax_unused_days = = 3\n");
        assertThatThrownBy(() -> MemoriesConfig.load(file))
                .isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining(file + " is not valid TOML at line 3");
    }

    @Test
    void load_binaryFileSaysItIsNotUtf8Text() throws IOException {
        Path invalidUtf8 = Files.write(dir.resolve("png.toml"), new byte[] {(byte) 0x89, 'P', 'N', 'G', (byte) 0xff});
        Path withNul = Files.write(dir.resolve("nul.toml"), new byte[] {'[', 'm', ']', 0, 0, 1});
        for (Path file : java.util.List.of(invalidUtf8, withNul)) {
            assertThatThrownBy(() -> MemoriesConfig.load(file))
                    .isInstanceOf(MemoryConfigurationException.class)
                    .hasMessageContaining(file + " is not UTF-8 text");
        }
    }

    @Test
    void load_memoriesThatIsNotATableIsAnError() throws IOException {
        Path file = write("memories = true\n");
        assertThatThrownBy(() -> MemoriesConfig.load(file))
                .isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("must be a table");
    }

    @Test
    void load_blankModelNameIsAnError() throws IOException {
        Path file = write("[memories]\nextract_model = \"  \"\n");
        assertThatThrownBy(() -> MemoriesConfig.load(file)).hasMessageContaining("memories.extract_model");
    }

    private Path write(String toml) throws IOException {
        Path file = Files.createTempFile(dir, "config", ".toml");
        Files.writeString(file, toml);
        return file;
    }
}
