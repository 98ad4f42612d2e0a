package dev.mnemo.spring.boot;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.TenantHomes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where the users' engines of {@code tenancy=per-user} keep their state: a home per user under one
 * folder, or a tenant each of the application's {@code PostgresBackend}. It is also what every
 * user's memory shares, and so what the health indicator probes.
 */
interface TenantStorage {

    /**
     * A user's engine builder: {@code configure} (settings, model, listeners, customizers) applied,
     * and the user's storage wired so that nothing {@code configure} did can point it elsewhere.
     */
    MemoryEngine.Builder builder(String tenantId, UnaryOperator<MemoryEngine.Builder> configure);

    /**
     * Whether the user has any state here (a home, rows), found without creating any: the endpoint
     * answers 404 for a user without, rather than open an engine (and a home) for any name.
     */
    boolean hasState(String tenantId);

    /**
     * How the schedule finds users with due work whose engines are closed; empty when this storage
     * cannot tell (then only open engines are visited).
     *
     * @param config the users' {@code mnemo.memories.*} settings (idle window, age, sources, per-pass limit)
     */
    default Optional<DueTenants> dueTenants(Clock clock, MemoriesConfig config) {
        return Optional.empty();
    }

    /** Checks that the storage every user shares is usable; throws with the reason when it is not. */
    void probe();

    /** What it is, for logs and health details; never a user's id. */
    String describe();

    /** One home per user at {@code TenantHomes.home(root, userId)}, each with its own SQLite file and git folder. */
    static TenantStorage homes(Path root) {
        return new TenantStorage() {
            @Override
            public MemoryEngine.Builder builder(String tenantId, UnaryOperator<MemoryEngine.Builder> configure) {
                return configure.apply(MemoryEngine.builder()).home(TenantHomes.home(root, tenantId));
            }

            @Override
            public boolean hasState(String tenantId) {
                return Files.isDirectory(TenantHomes.home(root, tenantId));
            }

            @Override
            public Optional<DueTenants> dueTenants(Clock clock, MemoriesConfig config) {
                return Optional.of(new HomeMarkers(root, clock, Duration.ofHours(config.minRolloutIdleHours()),
                        config.maxRolloutsPerStartup()));
            }

            /** The folder must be a writable folder, or be creatable in the nearest folder that exists. */
            @Override
            public void probe() {
                Path existing = root.toAbsolutePath();
                while (existing != null && !Files.exists(existing)) {
                    existing = existing.getParent();
                }
                if (existing == null || !Files.isDirectory(existing)) {
                    throw new UncheckedIOException(new IOException("the users' homes folder " + root
                            + " is not a folder" + (existing == null ? "" : " (" + existing + " is a file)")));
                }
                if (!Files.isWritable(existing)) {
                    throw new UncheckedIOException(new IOException("the users' homes folder " + existing
                            + " is not writable"));
                }
            }

            @Override
            public String describe() {
                return "homes under " + root;
            }
        };
    }
}
