package dev.mnemo.postgres;

import java.util.List;

/**
 * The transactions of one tenant's {@link PostgresMemoryStore} over {@code sql/state.sql}, shared by
 * its role classes: writes in one read-committed transaction, reads in one snapshot, and the
 * background vacuums after a delete. The tenant is bound by {@link TenantDatabase} for every
 * transaction opened here, so no role class names it in a statement; they see it only for messages.
 */
final class StateTransactions {

    /** Vacuumed after a forget deleted rows: memories, jobs, threads. */
    private static final List<String> FORGET_TABLES = List.of("tenant_stage1_outputs", "tenant_jobs",
            "tenant_threads");
    /** Vacuumed when a note awaiting approval was taken (a rejected one's text) or cleared. */
    private static final List<String> NOTE_TABLES = List.of("tenant_notes_awaiting_approval");

    private final TenantDatabase database;
    private final String tenant;

    StateTransactions(TenantDatabase database, String tenant) {
        this.database = database;
        this.tenant = tenant;
    }

    /** The tenant, for log lines and messages only. */
    String tenant() {
        return tenant;
    }

    TenantDatabase database() {
        return database;
    }

    <T> T write(String what, TenantDatabase.Work<T> work) {
        return database.write(tenant, PostgresMemoryStore.SQL, what, work);
    }

    <T> T read(String what, TenantDatabase.Work<T> work) {
        return database.readSnapshot(tenant, PostgresMemoryStore.SQL, what, work);
    }

    /** Vacuums the tables a forget deleted from, in the background; call only when rows were deleted. */
    void vacuumAfterForget(String what) {
        database.vacuumLater(FORGET_TABLES, what + " of tenant " + tenant);
    }

    /** Vacuums the notes awaiting approval in the background; call only when rows were deleted. */
    void vacuumNotes(String what) {
        database.vacuumLater(NOTE_TABLES, what + " of tenant " + tenant);
    }
}
