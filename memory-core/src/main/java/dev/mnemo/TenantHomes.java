package dev.mnemo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The local layout for many tenants: each tenant's home is a folder under one root, named by
 * encoding the tenant id. Tenant ids are untrusted input: any id (with {@code /}, {@code ..}, a NUL
 * byte, upper and lower case, 10,000 characters) maps to one folder directly under the root, and
 * two different ids never map to the same folder, also on case-insensitive file systems.
 */
public final class TenantHomes {

    /** Encoded names longer than this are cut and given a hash of the whole id. */
    static final int MAX_PLAIN_NAME_CHARS = 120;
    private static final int CUT_NAME_CHARS = 80;

    private TenantHomes() {}

    /**
     * The folder name for a tenant id: lower-case ASCII letters, digits, {@code -} and {@code _}
     * stay; every other character becomes {@code %XX} per UTF-8 byte (upper-case letters too,
     * so {@code A} and {@code a} differ on any file system). A name that would be longer than
     * {@value #MAX_PLAIN_NAME_CHARS} characters is cut and ends in {@code ~} and 32 hex digits of
     * the id's SHA-256 ({@code ~} never occurs in a plain name, so cut names and plain names never
     * meet).
     *
     * @param tenantId the tenant id, untrusted
     * @return the folder name, safe as one path segment
     * @throws IllegalArgumentException when the id is blank
     * @throws NullPointerException when {@code tenantId} is null
     */
    public static String folderName(String tenantId) {
        Objects.requireNonNull(tenantId, "tenantId");
        if (tenantId.isBlank()) {
            throw new IllegalArgumentException("tenant id must not be blank");
        }
        StringBuilder name = new StringBuilder(tenantId.length() + 8);
        for (byte b : tenantId.getBytes(StandardCharsets.UTF_8)) {
            boolean plain = (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '-' || b == '_';
            if (plain) {
                name.append((char) b);
            } else {
                name.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
            }
        }
        if (name.length() <= MAX_PLAIN_NAME_CHARS) {
            return name.toString();
        }
        return name.substring(0, CUT_NAME_CHARS) + "~" + sha256Hex(tenantId).substring(0, 32);
    }

    /**
     * The tenant's home: {@code root/<folderName(tenantId)>}.
     *
     * @param root the folder holding every tenant's home
     * @param tenantId the tenant id, untrusted
     * @return the tenant's home folder (not created)
     * @throws NullPointerException when {@code root} or {@code tenantId} is null
     * @throws IllegalArgumentException when the id is blank
     */
    public static Path home(Path root, String tenantId) {
        Objects.requireNonNull(root, "root");
        return root.resolve(folderName(tenantId));
    }

    /**
     * An engine factory for {@link MemoryEngines.Builder#engineFactory}: each tenant's engine is a
     * fresh builder from {@code builders} with its {@link #home home} under {@code root}.
     *
     * @param builders a new, configured builder per call (model, config, listener…), without a home
     * @param root the folder holding every tenant's home
     * @return a function from tenant id to a newly built engine
     * @throws NullPointerException when {@code root} or {@code builders} is null
     */
    public static Function<String, MemoryEngine> under(Path root, Supplier<MemoryEngine.Builder> builders) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(builders, "builders");
        return tenantId -> builders.get().home(home(root, tenantId)).build();
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
