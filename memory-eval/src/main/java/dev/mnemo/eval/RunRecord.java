package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What produced the answers in a run directory, kept in its {@code run.json}: the model (its name
 * as given and the settings that tell it apart from another of that name) and the scenario set
 * (format version and {@linkplain ScenarioSet#fingerprint() content hash}). A run resumes only
 * when both match, so one model's answers are never reported under another's name.
 *
 * @param modelSettings e.g. the endpoint and API; never a secret (the file is plain text)
 */
record RunRecord(String modelName, SortedMap<String, String> modelSettings, int scenarioVersion,
        String scenarioFingerprint) {

    static final String FILE = "run.json";
    /** The layout of {@code run.json}; a file with another number is not read as a record. */
    private static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    RunRecord {
        Objects.requireNonNull(modelName, "modelName");
        modelSettings = new TreeMap<>(modelSettings);
        Objects.requireNonNull(scenarioFingerprint, "scenarioFingerprint");
    }

    /** The record of a run of {@code modelName} on {@code scenarios} (the whole set, even when limited). */
    static RunRecord of(String modelName, Map<String, String> modelSettings, ScenarioSet scenarios) {
        return new RunRecord(modelName, new TreeMap<>(modelSettings), scenarios.version(), scenarios.fingerprint());
    }

    /** Same model, same settings, same scenarios: this run may take over the other's answers. */
    boolean sameRunAs(RunRecord other) {
        return sameModelAs(other) && sameScenariosAs(other);
    }

    boolean sameModelAs(RunRecord other) {
        return modelName.equals(other.modelName) && modelSettings.equals(other.modelSettings);
    }

    boolean sameScenariosAs(RunRecord other) {
        return scenarioVersion == other.scenarioVersion && scenarioFingerprint.equals(other.scenarioFingerprint);
    }

    /** {@code model 'llama3.1' (api=chat, base_url=http://localhost:11434/v1)}. */
    String describeModel() {
        return "model '" + modelName + "'" + (modelSettings.isEmpty() ? "" : modelSettings.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ", " (", ")")));
    }

    /** {@code scenario set v1 sha256:0123…}, or for a benchmark run {@code locomo file sha256:0123…}. */
    String describeScenarios() {
        return benchmark() ? scenarioFingerprint : "scenario set v" + scenarioVersion + " " + scenarioFingerprint;
    }

    /** What the run read: a benchmark file (its fingerprint names the benchmark) or a scenario set. */
    String inputNoun() {
        return benchmark() ? "benchmark file" : "scenario set";
    }

    private boolean benchmark() {
        return !scenarioFingerprint.startsWith("sha256:");
    }

    /** The record in {@code dir}, empty when there is none. */
    static Optional<RunRecord> read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        JsonNode json;
        try {
            json = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw unreadable(dir, file, e.getMessage());
        }
        if (json == null || json.path("format").asInt(0) != FORMAT || !json.path("model").path("name").isTextual()
                || !json.path("scenarios").path("fingerprint").isTextual()) {
            throw unreadable(dir, file, "not a run record of format " + FORMAT);
        }
        SortedMap<String, String> settings = new TreeMap<>();
        for (Map.Entry<String, JsonNode> setting : json.path("model").path("settings").properties()) {
            settings.put(setting.getKey(), setting.getValue().asText());
        }
        JsonNode scenarios = json.path("scenarios");
        return Optional.of(new RunRecord(json.path("model").path("name").asText(), settings,
                scenarios.path("version").asInt(), scenarios.path("fingerprint").asText()));
    }

    private static EvalRunMismatchException unreadable(Path dir, Path file, String why) {
        return new EvalRunMismatchException(dir, "The run record " + file + " cannot be read (" + why + "), so"
                + " which model and scenario set made the answers in " + dir + " is unknown.");
    }

    /** Writes the record into {@code dir}, whole or not at all. */
    void write(Path dir) {
        ObjectNode json = JSON.createObjectNode().put("format", FORMAT);
        ObjectNode model = json.putObject("model").put("name", modelName);
        ObjectNode settings = model.putObject("settings");
        modelSettings.forEach(settings::put);
        json.putObject("scenarios").put("version", scenarioVersion).put("fingerprint", scenarioFingerprint);
        Path file = dir.resolve(FILE);
        Path tmp = dir.resolve(FILE + ".tmp");
        try {
            JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), json);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the run record " + file, e);
        }
    }
}
