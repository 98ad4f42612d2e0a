package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TenantScopedIdTest {

    @Test
    void key_startsWithTheTenantsLength_andParsesBack() {
        TenantScopedId id = new TenantScopedId("alice", "chat-1");

        assertThat(id.key()).isEqualTo("5:alice:chat-1").startsWith(TenantScopedId.prefix("alice"));
        assertThat(TenantScopedId.parse(id.key())).isEqualTo(id);
    }

    @Test
    void pairsThatWouldRunTogether_getDifferentKeys() {
        TenantScopedId left = new TenantScopedId("a:b", "c");
        TenantScopedId right = new TenantScopedId("a", "b:c");

        assertThat(left.key()).isNotEqualTo(right.key());
        assertThat(TenantScopedId.parse(left.key())).isEqualTo(left);
        assertThat(TenantScopedId.parse(right.key())).isEqualTo(right);
        assertThat(right.key()).doesNotStartWith(TenantScopedId.prefix("a:b"));
    }

    @Test
    void theSharedEnginesEmptyTenant_roundTrips() {
        assertThat(TenantScopedId.parse(new TenantScopedId("", "x").key())).isEqualTo(new TenantScopedId("", "x"));
    }

    @Test
    void textThatIsNoKey_isRefusedNamingIt() {
        assertThatThrownBy(() -> TenantScopedId.parse("alice:chat-1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("alice:chat-1");
        assertThatThrownBy(() -> TenantScopedId.parse("9:alice:chat-1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TenantScopedId.parse("-1:x")).isInstanceOf(IllegalArgumentException.class);
    }
}
