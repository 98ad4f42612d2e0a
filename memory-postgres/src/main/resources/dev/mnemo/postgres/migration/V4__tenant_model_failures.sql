-- The last failure of the model itself in Phase 1 (unreachable, unauthorised, rate limited,
-- rejecting the request), per tenant, shown by status() until a Phase 1 job next succeeds.
-- failed_at is epoch seconds, as in jobs. memory-store-sqlite's V3, keyed by tenant.
CREATE TABLE tenant_model_failures (
    tenant_id TEXT   NOT NULL PRIMARY KEY,
    reason    TEXT   NOT NULL,
    message   TEXT   NOT NULL,
    failed_at BIGINT NOT NULL
);

SELECT create_tenant_view('model_failures', 'tenant_model_failures');
