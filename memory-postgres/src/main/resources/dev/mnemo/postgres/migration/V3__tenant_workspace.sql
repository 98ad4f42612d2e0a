-- Memory files: each tenant's workspace baseline (the files as the last consolidation left them),
-- a version that moves on every change (servers compare it to their local copy: one row read), and
-- the consolidation history with the files of each kept entry, for rollback. Scoped like V1.

CREATE TABLE tenant_workspaces (
    tenant_id TEXT   NOT NULL PRIMARY KEY,
    version   BIGINT NOT NULL
);

CREATE TABLE tenant_workspace_files (
    tenant_id TEXT  NOT NULL,
    path      TEXT  NOT NULL,
    content   BYTEA NOT NULL,
    PRIMARY KEY (tenant_id, path)
);

CREATE TABLE tenant_consolidations (
    tenant_id           TEXT     NOT NULL,
    seq                 BIGINT   GENERATED ALWAYS AS IDENTITY,
    id                  TEXT     NOT NULL,
    at_seconds          BIGINT   NOT NULL,
    at_nanos            INTEGER  NOT NULL,
    model               TEXT     NOT NULL,
    input_tokens        BIGINT   NOT NULL,
    cached_input_tokens BIGINT   NOT NULL,
    output_tokens       BIGINT   NOT NULL,
    reasoning_tokens    BIGINT   NOT NULL,
    thread_ids          TEXT[]   NOT NULL,
    source_updated_at   BIGINT[] NOT NULL,
    restores            TEXT,
    PRIMARY KEY (tenant_id, seq)
);

CREATE INDEX idx_consolidations_id ON tenant_consolidations (tenant_id, id);

CREATE TABLE tenant_consolidation_files (
    tenant_id TEXT   NOT NULL,
    seq       BIGINT NOT NULL,
    path      TEXT   NOT NULL,
    content   BYTEA  NOT NULL,
    PRIMARY KEY (tenant_id, seq, path),
    FOREIGN KEY (tenant_id, seq) REFERENCES tenant_consolidations (tenant_id, seq) ON DELETE CASCADE
);

SELECT create_tenant_view('workspaces', 'tenant_workspaces');
SELECT create_tenant_view('workspace_files', 'tenant_workspace_files');
SELECT create_tenant_view('consolidations', 'tenant_consolidations');
SELECT create_tenant_view('consolidation_files', 'tenant_consolidation_files');
