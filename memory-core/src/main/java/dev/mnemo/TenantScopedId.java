package dev.mnemo;

import java.util.Objects;

/**
 * An id a client chose (a conversation id, a chat memory id) qualified by the tenant the server
 * resolved: in a multi-tenant path identity is the pair, never the id alone. Its {@link #key()}
 * text, {@code <length of tenant>:<tenant>:<id>}, is what a framework's store keys history by; no
 * two pairs share a key (the length says where the tenant ends, so {@code ("a:b", "c")} and
 * {@code ("a", "b:c")} differ), and {@link #parse} reads it back. The adapters' tenant-scoped chat
 * memories use this one form.
 *
 * @param tenant the tenant the server resolved ({@code ""} for a shared engine)
 * @param id the client's own id
 */
public record TenantScopedId(String tenant, String id) {

    /**
     * Checks both parts.
     *
     * @param tenant the tenant the server resolved ({@code ""} for a shared engine)
     * @param id the client's own id
     * @throws NullPointerException when either part is null
     */
    public TenantScopedId {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(id, "id");
    }

    /**
     * The key's text: {@code <length of tenant>:<tenant>:<id>}.
     *
     * @return the key text
     */
    public String key() {
        return prefix(tenant) + id;
    }

    /**
     * What every key of {@code tenant} starts with, and no other tenant's does.
     *
     * @param tenant the tenant ({@code ""} for a shared engine)
     * @return {@code <length of tenant>:<tenant>:}
     * @throws NullPointerException when {@code tenant} is null
     */
    public static String prefix(String tenant) {
        Objects.requireNonNull(tenant, "tenant");
        return tenant.length() + ":" + tenant + ":";
    }

    /**
     * Reads a {@link #key()} back.
     *
     * @param key the key text
     * @return the tenant and the id it names
     * @throws IllegalArgumentException when {@code key} is not such a key's text
     * @throws NullPointerException when {@code key} is null
     */
    public static TenantScopedId parse(String key) {
        Objects.requireNonNull(key, "key");
        int colon = key.indexOf(':');
        try {
            int length = Integer.parseInt(key.substring(0, colon));
            int start = colon + 1;
            if (colon < 1 || length < 0 || start + length >= key.length() || key.charAt(start + length) != ':') {
                throw new IllegalArgumentException("not a tenant-scoped key: '" + key + "'");
            }
            return new TenantScopedId(key.substring(start, start + length), key.substring(start + length + 1));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("not a tenant-scoped key: '" + key + "'", e);
        }
    }

    @Override
    public String toString() {
        return key();
    }
}
