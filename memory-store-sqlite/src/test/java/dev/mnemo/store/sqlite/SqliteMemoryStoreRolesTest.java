package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.ApprovalStore;
import dev.mnemo.spi.ForgetStore;
import dev.mnemo.spi.MaintenanceStore;
import dev.mnemo.spi.Phase2Store;
import dev.mnemo.spi.SpawnGraphStore;
import dev.mnemo.spi.Stage1Store;
import dev.mnemo.spi.ThreadStore;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The composite hands every role method its role class implements on to it: a method the role
 * class overrides but {@link SqliteMemoryStore} does not would silently fall back to the SPI's
 * default (which fails or keeps nothing) instead of reaching SQLite.
 */
class SqliteMemoryStoreRolesTest {

    private static final Map<Class<?>, Class<?>> ROLES = Map.of(
            ThreadStore.class, SqliteThreads.class,
            SpawnGraphStore.class, SqliteSpawnGraph.class,
            Stage1Store.class, SqliteStage1.class,
            ApprovalStore.class, SqliteApprovals.class,
            Phase2Store.class, SqlitePhase2.class,
            ForgetStore.class, SqliteForgetLedger.class,
            MaintenanceStore.class, SqliteMaintenance.class);

    @Test
    void everyRoleMethodARoleClassImplements_isDeclaredByTheComposite() {
        List<String> missing = new ArrayList<>();
        ROLES.forEach((role, implementation) -> {
            assertThat(role).isAssignableFrom(implementation);
            for (Method method : role.getDeclaredMethods()) {
                if (isRoleMethod(method) && declares(implementation, method)
                        && !declares(SqliteMemoryStore.class, method)) {
                    missing.add(role.getSimpleName() + "." + method.getName());
                }
            }
        });
        assertThat(missing).isEmpty();
    }

    @Test
    void everyRoleMethodOverriddenByTheComposite_isImplementedByItsRoleClass() {
        List<String> unserved = new ArrayList<>();
        ROLES.forEach((role, implementation) -> {
            for (Method method : role.getDeclaredMethods()) {
                if (isRoleMethod(method) && declares(SqliteMemoryStore.class, method)
                        && !declares(implementation, method)) {
                    unserved.add(role.getSimpleName() + "." + method.getName());
                }
            }
        });
        assertThat(unserved).isEmpty();
    }

    /** A method of the role's contract: public and not static, so the SPI's private helpers are left out. */
    private static boolean isRoleMethod(Method method) {
        return !method.isSynthetic() && !Modifier.isStatic(method.getModifiers())
                && Modifier.isPublic(method.getModifiers());
    }

    private static boolean declares(Class<?> type, Method method) {
        try {
            type.getDeclaredMethod(method.getName(), method.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
