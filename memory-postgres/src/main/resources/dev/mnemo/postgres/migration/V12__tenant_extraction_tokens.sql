-- The daily extraction token ledger of [memories] max_extraction_tokens_per_day (issue 38):
-- memory-store-sqlite's V9, per tenant, scoped like V1 (every statement goes through the view). One
-- row per tenant and UTC day (ISO date, e.g. 2026-06-01): tokens is the usage Phase 1 jobs reported
-- plus the reservations of jobs still running. updated_at is epoch seconds, as in jobs. Deleting a
-- tenant's row of today lifts that tenant's budget for today.
CREATE TABLE tenant_extraction_tokens (
    tenant_id  TEXT   NOT NULL,
    day        TEXT   NOT NULL,
    tokens     BIGINT NOT NULL CHECK (tokens >= 0),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, day)
);

SELECT create_tenant_view('extraction_tokens', 'tenant_extraction_tokens');
