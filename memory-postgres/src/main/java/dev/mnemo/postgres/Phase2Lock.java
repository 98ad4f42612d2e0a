package dev.mnemo.postgres;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Phase 2 lock as one engine holds it: the ownership token its store last claimed, until that
 * consolidation is marked done or failed. The engine's workspace commits only while the token is
 * still the running owner's, checked in the commit's own transaction.
 */
final class Phase2Lock {

    private final AtomicReference<String> token = new AtomicReference<>();

    void claimed(String ownershipToken) {
        token.set(ownershipToken);
    }

    void finished(String ownershipToken) {
        token.compareAndSet(ownershipToken, null);
    }

    Optional<String> held() {
        return Optional.ofNullable(token.get());
    }
}
