package dev.mnemo.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ComposedMemoryStoreTest {

    private static final List<Class<?>> ROLES = List.of(ThreadStore.class, SpawnGraphStore.class, Stage1Store.class,
            ApprovalStore.class, Phase2Store.class, ForgetStore.class, MaintenanceStore.class);

    /** Each role object records the calls it gets, as "Role.method/arity". */
    private final List<String> calls = new ArrayList<>();

    @Test
    void everyMethodOfEveryRole_reachesTheObjectGivenForThatRole() throws Exception {
        ComposedMemoryStore store = new TestStore(roles());

        int checked = 0;
        for (Class<?> role : ROLES) {
            for (Method method : role.getMethods()) {
                if (Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() != role) {
                    continue;
                }
                calls.clear();
                method.invoke(store, arguments(method));
                assertThat(calls).as("%s.%s", role.getSimpleName(), method.getName())
                        .containsExactly(role.getSimpleName() + "." + method.getName() + "/" + method.getParameterCount());
                checked++;
            }
        }
        assertThat(checked).as("methods of the seven roles").isGreaterThanOrEqualTo(50);
    }

    @Test
    void aMissingRole_isRefusedNamingIt() {
        ComposedMemoryStore.Roles all = roles();

        assertThatThrownBy(() -> new ComposedMemoryStore.Roles(all.threads(), null, all.stage1(), all.approvals(),
                all.phase2(), all.forgets(), all.maintenance()))
                .isInstanceOf(NullPointerException.class).hasMessage("spawnGraph");
    }

    @Test
    void aRoleLeftToItsDefaults_answersAsTheRoleSays() {
        ComposedMemoryStore.Roles all = roles();
        ComposedMemoryStore store = new TestStore(new ComposedMemoryStore.Roles(all.threads(), new SpawnGraphStore() {
        }, all.stage1(), all.approvals(), all.phase2(), all.forgets(), all.maintenance()));

        assertThatThrownBy(() -> store.spawnParent("child"))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("keeps no spawn graph");
    }

    private ComposedMemoryStore.Roles roles() {
        return new ComposedMemoryStore.Roles(recording(ThreadStore.class), recording(SpawnGraphStore.class),
                recording(Stage1Store.class), recording(ApprovalStore.class), recording(Phase2Store.class),
                recording(ForgetStore.class), recording(MaintenanceStore.class));
    }

    private <T> T recording(Class<T> role) {
        return role.cast(Proxy.newProxyInstance(role.getClassLoader(), new Class<?>[] {role}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return method.getName().equals("equals") ? proxy == args[0]
                        : method.getName().equals("hashCode") ? System.identityHashCode(proxy) : role.getSimpleName();
            }
            calls.add(role.getSimpleName() + "." + method.getName() + "/" + method.getParameterCount());
            return emptyOf(method.getReturnType());
        }));
    }

    private static Object[] arguments(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            args[i] = emptyOf(types[i]);
        }
        return args;
    }

    private static Object emptyOf(Class<?> type) {
        Map<Class<?>, Object> primitives = Map.of(boolean.class, false, int.class, 0, long.class, 0L);
        if (type.isPrimitive()) {
            return primitives.get(type);
        }
        if (type == Optional.class) {
            return Optional.empty();
        }
        if (type == List.class) {
            return List.of();
        }
        if (type == java.util.Set.class) {
            return java.util.Set.of();
        }
        return null;
    }

    private static final class TestStore extends ComposedMemoryStore {
        TestStore(Roles roles) {
            super(roles);
        }

        @Override
        public void close() {
        }
    }
}
