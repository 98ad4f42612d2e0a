package dev.mnemo.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class Stage1ClaimParamsTest {

    private static Stage1ClaimParams params(int scanLimit, int maxClaimed, List<String> sources) {
        return new Stage1ClaimParams("", "worker", scanLimit, maxClaimed, 30, 12, sources, Duration.ofHours(1));
    }

    @Test
    void claimsNothing_whenNothingMayBeScannedClaimedOrNoSourceIsAllowed() {
        assertThat(params(0, 8, List.of("cli")).claimsNothing()).isTrue();
        assertThat(params(5_000, 0, List.of("cli")).claimsNothing()).isTrue();
        assertThat(params(5_000, 8, List.of()).claimsNothing()).isTrue();
        assertThat(params(1, 1, List.of("cli")).claimsNothing()).isFalse();
    }
}
