package dev.mnemo.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A versioned set of synthetic users. {@link #bundled()} is the set written for Mnemo (20 users,
 * six past sessions each); {@link #load(Path)} reads one in the same JSON format (docs/eval.md).
 */
public final class ScenarioSet {

    private static final String BUNDLED = "scenarios-v1.json";
    /** Canonical JSON for the fingerprint: properties and map keys sorted, so only content counts. */
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private final int version;
    private final List<ScenarioUser> users;
    private final String fingerprint;

    private ScenarioSet(int version, List<ScenarioUser> users, String fingerprint) {
        this.version = version;
        this.users = List.copyOf(users);
        this.fingerprint = fingerprint;
    }

    private ScenarioSet(int version, List<ScenarioUser> users) {
        this(version, users, fingerprint(version, users));
    }

    /** The bundled set. */
    public static ScenarioSet bundled() {
        try (InputStream in = ScenarioSet.class.getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IllegalStateException("missing resource dev/mnemo/eval/" + BUNDLED);
            }
            return parse(new ObjectMapper().readTree(in), "the bundled set " + BUNDLED);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled scenario set", e);
        }
    }

    /**
     * A set from a JSON file.
     *
     * @throws IllegalArgumentException naming the file and the field when the file does not fit the format
     */
    public static ScenarioSet load(Path file) {
        Objects.requireNonNull(file, "file");
        try {
            return parse(new ObjectMapper().readTree(Files.readString(file)), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read scenario file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The format version. */
    public int version() {
        return version;
    }

    /**
     * A content hash of the whole set as the eval plays it ({@code sha256:} and 64 hex digits):
     * every user's facts and the sessions and probes the templates make of them. An edited
     * scenario, an added user or a changed template gives another value; reformatting the file
     * does not. {@link #limit(int)} keeps the value of the set it was cut from, so a run may grow
     * from the first five users to all of them.
     */
    public String fingerprint() {
        return fingerprint;
    }

    /** The users, in file order. */
    public List<ScenarioUser> users() {
        return users;
    }

    /** The first {@code n} users (all of them when there are fewer). */
    public ScenarioSet limit(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + n);
        }
        return new ScenarioSet(version, users.subList(0, Math.min(n, users.size())), fingerprint);
    }

    private static String fingerprint(int version, List<ScenarioUser> users) {
        List<Map<String, Object>> played = new ArrayList<>();
        for (ScenarioUser user : users) {
            played.add(Map.of("user", user, "sessions", Script.sessions(user), "probes", Script.probes(user)));
        }
        try {
            byte[] json = CANONICAL.writeValueAsBytes(Map.of("version", version, "users", played));
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the scenario set as JSON to hash it", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static ScenarioSet parse(JsonNode root, String where) {
        try {
            int version = root.path("version").asInt(0);
            if (version != 1) {
                throw new IllegalArgumentException("'version' must be 1");
            }
            List<ScenarioUser> users = new ArrayList<>();
            Set<String> ids = new HashSet<>();
            for (JsonNode u : root.path("users")) {
                ScenarioUser user = new ScenarioUser(text(u, "id"), text(u, "project"),
                        new ScenarioUser.Preference(text(u, "preference", "subject"), text(u, "preference", "statement"),
                                text(u, "preference", "keyword")),
                        new ScenarioUser.Procedure(text(u, "procedure", "task"), text(u, "procedure", "command")),
                        new ScenarioUser.Shield(text(u, "shield", "symptom"), text(u, "shield", "fix"),
                                text(u, "shield", "keyword")),
                        new ScenarioUser.Correction(text(u, "correction", "subject"), text(u, "correction", "old"),
                                text(u, "correction", "new")),
                        new ScenarioUser.Polluted(text(u, "polluted", "subject"), text(u, "polluted", "fact"),
                                text(u, "polluted", "keyword")),
                        new ScenarioUser.Secret(text(u, "secret", "service"), text(u, "secret", "value")));
                if (!ids.add(user.id())) {
                    throw new IllegalArgumentException("user id '" + user.id() + "' appears twice");
                }
                users.add(user);
            }
            if (users.isEmpty()) {
                throw new IllegalArgumentException("'users' must list at least one user");
            }
            return new ScenarioSet(version, users);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("scenario set " + where + ": " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode node, String... path) {
        JsonNode value = node;
        for (String field : path) {
            value = value.path(field);
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException("'" + String.join(".", path) + "' must be a string in user "
                    + node.path("id").asText("?"));
        }
        return value.asText();
    }
}
