package dev.mnemo.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The store id listeners hear: the tenant id in a fleet, else the home folder's name; never a path. */
class EnginePartsStoreLabelTest {

    private static EngineParts parts(Path home, String tenantId) {
        return new EngineParts(home, home.resolve("memories"), null, null, null, null, null, false, null, false,
                List.of(), null, null, List.of(), Clock.systemUTC(), Clock.systemUTC(), null, Duration.ZERO,
                Duration.ZERO, 1, null, Duration.ofDays(10), false, false, tenantId);
    }

    @Test
    void outsideAFleet_theLabelIsTheHomesFolderName() {
        assertThat(parts(Path.of("/srv/agents/support-bot"), null).storeLabel()).isEqualTo("support-bot");
    }

    @Test
    void aHomeAtTheFileSystemsRoot_getsTheDefaultLabel() {
        assertThat(parts(Path.of("/"), null).storeLabel()).isEqualTo(EngineParts.DEFAULT_STORE_LABEL);
    }

    @Test
    void inAFleet_theLabelIsTheTenantId_whateverTheHomeIsCalled() {
        assertThat(parts(Path.of("/srv/tenants/acme%2Dcorp"), "Acme Corp").storeLabel()).isEqualTo("Acme Corp");
    }

    @Test
    void aTenantIdsSlashesAndPercentSigns_areWrittenSoTheLabelIsNeverAPath_andStaysDistinct() {
        assertThat(parts(Path.of("/t"), "acme/eu\\west").storeLabel()).isEqualTo("acme%2Feu%5Cwest");
        assertThat(parts(Path.of("/t"), "acme%2Feu").storeLabel()).isEqualTo("acme%252Feu");
        assertThat(parts(Path.of("/t"), "../../etc").storeLabel()).doesNotContain("/");
    }
}
