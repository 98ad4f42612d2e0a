-- Ad-hoc notes shared across servers: a note the memory tools add on any server is stored here at
-- once, so whichever server runs the tenant's next consolidation (and every server's memory tools)
-- sees it. A consolidation's commit deletes the notes it took; added_at is epoch milliseconds.
--
-- notes_version moves on every note added, apart from version: a note is not "another server
-- changed the memory files" for a commit's conflict check, yet a refresh still sees it in the one
-- primary-key read of the workspace row.

ALTER TABLE tenant_workspaces ADD COLUMN notes_version BIGINT NOT NULL DEFAULT 0;

-- The view of V3 was created with the table's columns at the time: recreate it to show the new one.
DROP VIEW workspaces;
SELECT create_tenant_view('workspaces', 'tenant_workspaces');

CREATE TABLE tenant_pending_notes (
    tenant_id TEXT   NOT NULL,
    path      TEXT   NOT NULL,
    content   BYTEA  NOT NULL,
    added_at  BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, path)
);

SELECT create_tenant_view('pending_notes', 'tenant_pending_notes');
