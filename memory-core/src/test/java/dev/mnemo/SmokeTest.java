package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void defaultsMatchCodex() {
        assertThat(MemoriesConfig.defaults().maxRawMemoriesForConsolidation()).isEqualTo(256);
    }
}
