package dev.mnemo.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * PostgreSQL's password file ({@code ~/.pgpass}, or the file {@code PGPASSFILE} names), read as
 * libpq reads it: one {@code host:port:database:user:password} entry a line, the first line that
 * matches wins; {@code *} in any of the first four fields matches anything; {@code \} escapes the
 * next character ({@code \:}, {@code \\}, {@code \*}); lines starting with {@code #} are comments.
 * A file that the group or others may read or write is ignored with a warning, as libpq does.
 */
final class PgPass {

    private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    /** One line: four patterns ({@code null} for the wildcard) and the password. */
    private record Entry(String host, String port, String database, String user, String password) {
        boolean matches(String host, String port, String database, String user) {
            return field(this.host, host) && field(this.port, port) && field(this.database, database)
                    && field(this.user, user);
        }

        private static boolean field(String pattern, String value) {
            return pattern == null || pattern.equals(value);
        }
    }

    private final List<Entry> entries;

    private PgPass(List<Entry> entries) {
        this.entries = entries;
    }

    /** The entries of {@code text}, a password file's content; malformed lines (fewer than five fields) are skipped. */
    static PgPass parse(String text) {
        List<Entry> entries = new ArrayList<>();
        for (String line : text.split("\r?\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            parseLine(line).ifPresent(entries::add);
        }
        return new PgPass(List.copyOf(entries));
    }

    /**
     * The password file at {@code file}: empty when it does not exist, and when it is not a regular
     * file or the group or others have any permission on it (then {@code warn} hears why).
     */
    static Optional<PgPass> read(Path file, Consumer<String> warn) {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(file)) {
            warn.accept("password file " + file + " is not a plain file: ignored");
            return Optional.empty();
        }
        try {
            if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                if (permissions.stream().anyMatch(GROUP_OR_OTHERS::contains)) {
                    warn.accept("password file " + file + " may be read or written by the group or others: ignored"
                            + " (chmod 0600 " + file + ")");
                    return Optional.empty();
                }
            }
            return Optional.of(parse(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            warn.accept("cannot read password file " + file + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    /** The password of the first entry matching the four values, if any. */
    Optional<String> password(String host, String port, String database, String user) {
        return entries.stream().filter(e -> e.matches(host, port, database, user)).map(Entry::password).findFirst();
    }

    /**
     * Splits one line into its fields: four separated by unescaped colons, then the password up to
     * the next unescaped colon or the end, escapes removed everywhere.
     */
    private static Optional<Entry> parseLine(String line) {
        List<String> fields = new ArrayList<>(5);
        StringBuilder field = new StringBuilder();
        boolean wildcard = false;
        for (int i = 0; i < line.length() && fields.size() < 5; i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                field.append(line.charAt(++i));
            } else if (c == ':') {
                fields.add(wildcard && field.length() == 1 && fields.size() < 4 ? null : field.toString());
                field.setLength(0);
                wildcard = false;
            } else {
                wildcard = field.length() == 0 && c == '*';
                field.append(c);
            }
        }
        if (fields.size() == 4) {
            fields.add(field.toString()); // the password, ending the line
        }
        if (fields.size() < 5) {
            return Optional.empty();
        }
        return Optional.of(new Entry(fields.get(0), fields.get(1), fields.get(2), fields.get(3), fields.get(4)));
    }
}
