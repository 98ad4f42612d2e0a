package dev.mnemo.console;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One browser's session: its cookie value, its CSRF token, when it was last used (it expires after
 * the console's idle timeout), and the one-time message the next page shows (what the last action
 * did).
 */
final class ConsoleSession {

    private final String id;
    private final String csrf;
    private final AtomicReference<Flash> flash = new AtomicReference<>();
    private volatile Instant lastUsed;

    ConsoleSession(String id, String csrf, Instant createdAt) {
        this.id = id;
        this.csrf = csrf;
        this.lastUsed = createdAt;
    }

    /** Whether it went unused for longer than {@code idle} before {@code now}. */
    boolean expired(Instant now, Duration idle) {
        return Duration.between(lastUsed, now).compareTo(idle) > 0;
    }

    /** Marks it used at {@code now}: its idle time starts again. */
    void touch(Instant now) {
        lastUsed = now;
    }

    String id() {
        return id;
    }

    String csrf() {
        return csrf;
    }

    /** Leaves a message for the next page this session shows. */
    void flash(boolean ok, String message) {
        flash.set(new Flash(ok, message));
    }

    /** The message left for this page, once. */
    Optional<Flash> takeFlash() {
        return Optional.ofNullable(flash.getAndSet(null));
    }

    /** A message after an action: {@code ok} false for a refusal or failure. */
    record Flash(boolean ok, String message) {}
}
