package dev.mnemo.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Named SQL statements loaded once from a resource of this package: a section starts with a line
 * {@code -- name: <key>}; other comment lines are dropped, so a {@code ?} in a comment is never
 * taken for a parameter.
 */
final class SqlStatements {

    private static final String NAME = "-- name:";

    private final String resource;
    private final Map<String, String> statements;

    private SqlStatements(String resource, Map<String, String> statements) {
        this.resource = resource;
        this.statements = Map.copyOf(statements);
    }

    static SqlStatements load(String resource) {
        String text;
        try (InputStream in = SqlStatements.class.getResourceAsStream(resource)) {
            Objects.requireNonNull(in, () -> "missing SQL resource " + resource);
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read SQL resource " + resource, e);
        }
        Map<String, String> statements = new LinkedHashMap<>();
        String key = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith(NAME)) {
                put(statements, key, body);
                key = trimmed.substring(NAME.length()).strip();
                body.setLength(0);
            } else if (!trimmed.startsWith("--") && !trimmed.isEmpty() && key != null) {
                body.append(line).append('\n');
            }
        }
        put(statements, key, body);
        return new SqlStatements(resource, statements);
    }

    private static void put(Map<String, String> statements, String key, StringBuilder body) {
        if (key != null && statements.put(key, body.toString().strip()) != null) {
            throw new IllegalStateException("SQL statement '" + key + "' is defined twice");
        }
    }

    /** The statement named {@code key}. */
    String get(String key) {
        String sql = statements.get(key);
        if (sql == null) {
            throw new IllegalArgumentException("no SQL statement '" + key + "' in " + resource);
        }
        return sql;
    }
}
