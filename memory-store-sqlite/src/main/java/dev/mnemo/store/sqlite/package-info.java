/** The SQLite state store: SqliteMemoryStore. */
package dev.mnemo.store.sqlite;
