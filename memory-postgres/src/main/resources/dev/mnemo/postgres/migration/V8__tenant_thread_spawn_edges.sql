-- The spawn graph (issue 31): which thread spawned which sub-agent thread, Codex's
-- thread_spawn_edges, per tenant. memory-store-sqlite's V6. Numbered 8, leaving 7 to a parallel
-- branch; renumber freely before a release. Status is 'open' or 'closed', kept as text like Codex's.

CREATE TABLE tenant_thread_spawn_edges (
    tenant_id        TEXT NOT NULL,
    parent_thread_id TEXT NOT NULL,
    child_thread_id  TEXT NOT NULL,
    status           TEXT NOT NULL,
    PRIMARY KEY (tenant_id, child_thread_id)
);

CREATE INDEX idx_thread_spawn_edges_parent_status
    ON tenant_thread_spawn_edges (tenant_id, parent_thread_id, status);

SELECT create_tenant_view('thread_spawn_edges', 'tenant_thread_spawn_edges');
