package dev.mnemo.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The folder of one scenario user (or cross-project scenario) in the run directory,
 * {@code users/<id>/}: its homes and its {@code result.json}. A scenario whose result exists is
 * not run again.
 */
final class ScenarioFolder {

    /** The folder of the run directory that holds one folder per scenario. */
    static final String USERS_FOLDER = "users";
    private static final String RESULT_FILE = "result.json";

    private static final Logger LOG = LoggerFactory.getLogger(ScenarioFolder.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String id;
    private final Path dir;

    ScenarioFolder(Path runDir, String id) {
        this.id = id;
        this.dir = runDir.resolve(USERS_FOLDER).resolve(id);
    }

    /** A path in the folder. */
    Path resolve(String name) {
        return dir.resolve(name);
    }

    /** The result an earlier run left, if it finished this scenario. */
    <T> Optional<T> earlierResult(Class<T> type) {
        Path file = dir.resolve(RESULT_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        LOG.info("eval: {} already done in an earlier run; reusing {}", id, file);
        try {
            return Optional.of(JSON.readValue(file.toFile(), type));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the earlier result " + file + "; delete it to run " + id
                    + " again", e);
        }
    }

    /** Writes the result, whole or not at all. */
    void writeResult(Object result) {
        Path file = dir.resolve(RESULT_FILE);
        try {
            Path tmp = file.resolveSibling(RESULT_FILE + ".tmp");
            JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), result);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
