package dev.mnemo.it;

import dev.mnemo.internal.redact.DefaultSecretRedactor;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.testkit.contract.SecretRedactorContract;

/**
 * The published {@link SecretRedactorContract} run against the engine's default redactor. It runs
 * here, not in memory-core, because memory-testkit depends on memory-core; the default redactor has
 * no public factory, so this test (never main code) names the internal class.
 */
class DefaultSecretRedactorContractTest extends SecretRedactorContract {

    @Override
    protected SecretRedactor redactor() {
        return new DefaultSecretRedactor();
    }
}
