package dev.mnemo.postgres;

/**
 * Free text for a {@code TEXT} column: PostgreSQL cannot store U+0000, which a Java string (and
 * SQLite, and a JSON line) can hold, so a NUL is kept as U+FFFD, the replacement character, instead
 * of failing the write. For the state layer's free text (a history line's text, a log entry's
 * message and target, a goal's objective): one odd character must not lose a message or a batch.
 */
final class StorableText {

    private StorableText() {
    }

    static String of(String text) {
        return text.indexOf('\0') < 0 ? text : text.replace('\0', '\uFFFD');
    }
}
