package dev.mnemo.it;

import dev.mnemo.internal.rollout.InMemoryThreadStore;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.contract.ThreadStoreContract;
import java.nio.file.Path;

/**
 * memory-core's thread-rows-only store double (from its test jar) against the part of the store
 * contract it implements, so the recorder and thread-sync tests that use it see a store that behaves
 * like the real ones (a polluted thread stays polluted).
 */
class InMemoryThreadStoreContractTest extends ThreadStoreContract {

    @Override
    protected MemoryStore openStore(Path dir) {
        return new InMemoryThreadStore();
    }

    @Override
    protected void dropOwnershipToken(MemoryStore store, String kind, String jobKey) {
        throw new UnsupportedOperationException("InMemoryThreadStore keeps no jobs");
    }
}
