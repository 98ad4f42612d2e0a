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
import java.util.TreeMap;

/**
 * A versioned set of synthetic users. {@link #bundled()} is the set written for Mnemo (20 users,
 * six past sessions each, and three cross-project scenarios); {@link #load(Path)} reads one in the
 * same JSON format (docs/eval.md).
 *
 * <p>Format versions: 1 lists {@code users}; 2 adds {@code cross_project}, the scenarios of one
 * user in several projects ({@link CrossProjectScenario}). A version-1 file still loads, and keeps
 * the fingerprint it had before version 2 existed, so its runs resume.
 */
public final class ScenarioSet {

    private static final String BUNDLED = "scenarios-v2.json";
    /** The newest format version this release reads. */
    static final int LATEST_VERSION = 2;
    /** Canonical JSON for the fingerprint: properties and map keys sorted, so only content counts. */
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private final int version;
    private final List<ScenarioUser> users;
    private final List<CrossProjectScenario> crossProject;
    private final String fingerprint;

    private ScenarioSet(int version, List<ScenarioUser> users, List<CrossProjectScenario> crossProject,
            String fingerprint) {
        this.version = version;
        this.users = List.copyOf(users);
        this.crossProject = List.copyOf(crossProject);
        this.fingerprint = fingerprint;
    }

    private ScenarioSet(int version, List<ScenarioUser> users, List<CrossProjectScenario> crossProject) {
        this(version, users, crossProject, fingerprint(version, users, crossProject));
    }

    /**
     * The bundled set.
     *
     * @return the set shipped in this jar
     * @throws IllegalStateException when the jar lacks it
     * @throws java.io.UncheckedIOException when it cannot be read
     */
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
     * @param file a scenario set in the JSON format of docs/eval.md; not null
     * @return the set the file holds
     * @throws IllegalArgumentException naming the file and the field when the file does not fit the format
     * @throws java.io.UncheckedIOException when the file cannot be read
     */
    public static ScenarioSet load(Path file) {
        Objects.requireNonNull(file, "file");
        try {
            return parse(new ObjectMapper().readTree(Files.readString(file)), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read scenario file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The format version.
     *
     * @return the version the file declares
     */
    public int version() {
        return version;
    }

    /**
     * A content hash of the whole set as the eval plays it ({@code sha256:} and 64 hex digits):
     * every user's and cross-project scenario's facts and the sessions and probes the templates
     * make of them. An edited scenario, an added user or a changed template gives another value;
     * reformatting the file does not. {@link #limit(int)} keeps the value of the set it was cut
     * from, so a run may grow from the first five users to all of them.
     *
     * @return {@code sha256:} followed by 64 hex digits
     */
    public String fingerprint() {
        return fingerprint;
    }

    /**
     * The users, in file order.
     *
     * @return the users, unmodifiable
     */
    public List<ScenarioUser> users() {
        return users;
    }

    /**
     * The cross-project scenarios, in file order (none in a version-1 set).
     *
     * @return the cross-project scenarios; empty in a version-1 set
     */
    public List<CrossProjectScenario> crossProject() {
        return crossProject;
    }

    /**
     * The first {@code n} users and the first {@code n} cross-project scenarios (all of them where
     * there are fewer), so a short run still measures contamination.
     *
     * @param n how many users and cross-project scenarios to keep, at least 1
     * @return the cut set, with this set's version and fingerprint
     * @throws IllegalArgumentException when {@code n} is less than 1
     */
    public ScenarioSet limit(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + n);
        }
        return new ScenarioSet(version, users.subList(0, Math.min(n, users.size())),
                crossProject.subList(0, Math.min(n, crossProject.size())), fingerprint);
    }

    /** Without cross-project scenarios the hashed document is the one version 1 hashed, so its value is kept. */
    private static String fingerprint(int version, List<ScenarioUser> users, List<CrossProjectScenario> crossProject) {
        List<Map<String, Object>> played = new ArrayList<>();
        for (ScenarioUser user : users) {
            played.add(Map.of("user", user, "sessions", Script.sessions(user), "probes", Script.probes(user)));
        }
        Map<String, Object> document = new TreeMap<>(Map.of("version", version, "users", played));
        if (!crossProject.isEmpty()) {
            List<Map<String, Object>> crossPlayed = new ArrayList<>();
            for (CrossProjectScenario scenario : crossProject) {
                crossPlayed.add(Map.of("scenario", scenario, "sessions", Script.sessions(scenario), "probes",
                        Script.probes(scenario)));
            }
            document.put("cross_project", crossPlayed);
        }
        try {
            byte[] json = CANONICAL.writeValueAsBytes(document);
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
            if (version < 1 || version > LATEST_VERSION) {
                throw new IllegalArgumentException("'version' must be 1 or " + LATEST_VERSION + " (cross-project"
                        + " scenarios), was " + root.path("version"));
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
            List<CrossProjectScenario> crossProject = crossProject(root, version, ids);
            return new ScenarioSet(version, users, crossProject);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("scenario set " + where + ": " + e.getMessage(), e);
        }
    }

    /** The {@code cross_project} scenarios of a version-2 file; their ids must differ from every other id. */
    private static List<CrossProjectScenario> crossProject(JsonNode root, int version, Set<String> ids) {
        JsonNode section = root.path("cross_project");
        if (section.isMissingNode()) {
            return List.of();
        }
        if (version < 2) {
            throw new IllegalArgumentException("'cross_project' needs 'version' 2");
        }
        if (!section.isArray()) {
            throw new IllegalArgumentException("'cross_project' must be a list");
        }
        List<CrossProjectScenario> scenarios = new ArrayList<>();
        for (JsonNode s : section) {
            List<CrossProjectScenario.Project> projects = new ArrayList<>();
            for (JsonNode p : s.path("projects")) {
                List<CrossProjectScenario.Fact> facts = new ArrayList<>();
                for (JsonNode f : p.path("facts")) {
                    facts.add(new CrossProjectScenario.Fact(text(f, s, "subject"), text(f, s, "value")));
                }
                projects.add(new CrossProjectScenario.Project(text(p, s, "key"), text(p, s, "name"), facts));
            }
            CrossProjectScenario scenario = new CrossProjectScenario(text(s, "id"),
                    new ScenarioUser.Preference(text(s, "shared", "subject"), text(s, "shared", "statement"),
                            text(s, "shared", "keyword")), projects);
            if (!ids.add(scenario.id())) {
                throw new IllegalArgumentException("id '" + scenario.id() + "' appears twice (users and cross-project"
                        + " scenarios share one folder each in a run directory)");
            }
            scenarios.add(scenario);
        }
        return scenarios;
    }

    /** A field of a project or fact of cross-project scenario {@code scenario}, named in the error. */
    private static String text(JsonNode node, JsonNode scenario, String field) {
        JsonNode value = node.path(field);
        if (!value.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' must be a string in each project and fact of"
                    + " cross-project scenario " + scenario.path("id").asText("?"));
        }
        return value.asText();
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
