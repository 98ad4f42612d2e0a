/**
 * Fleet mode: {@link dev.mnemo.postgres.PostgresBackend} keeps the state, recorded sessions and
 * memory files of many tenants in one PostgreSQL database, so any application server can serve any
 * tenant. Everything else in this package is an implementation detail.
 */
package dev.mnemo.postgres;
