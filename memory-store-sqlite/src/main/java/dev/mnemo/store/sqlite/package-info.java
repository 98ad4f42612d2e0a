/**
 * The SQLite state store: {@link dev.mnemo.store.sqlite.SqliteMemoryStore} (opened with
 * {@code SqliteMemoryStore.open(Path)}) and its {@link java.util.ServiceLoader} provider
 * {@link dev.mnemo.store.sqlite.SqliteMemoryStoreProvider} ({@code sqlite},
 * {@code <home>/mnemo.sqlite}). Everything else in the package is internal.
 */
package dev.mnemo.store.sqlite;
