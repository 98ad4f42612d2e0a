package dev.mnemo.console;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One browser's session: its cookie value, its CSRF token, and the one-time message the next page
 * shows (what the last action did).
 */
final class ConsoleSession {

    private final String id;
    private final String csrf;
    private final AtomicReference<Flash> flash = new AtomicReference<>();

    ConsoleSession(String id, String csrf) {
        this.id = id;
        this.csrf = csrf;
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
