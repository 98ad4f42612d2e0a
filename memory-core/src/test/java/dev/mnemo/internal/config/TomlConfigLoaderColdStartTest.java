package dev.mnemo.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.internal.FreshClasses;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading the settings of a home without a {@code config.toml} must not initialise Jackson: it is
 * most of a cold engine open and of {@code mnemo status}. Checked in a class loader of its own,
 * which defines Mnemo's and Jackson's classes afresh and can say which of them were loaded.
 */
class TomlConfigLoaderColdStartTest {

    private static final String TOML_MAPPER = "com.fasterxml.jackson.dataformat.toml.TomlMapper";

    @TempDir
    Path dir;

    @Test
    void load_missingFileLoadsNoJackson() throws Exception {
        FreshClasses fresh = new FreshClasses(getClass().getClassLoader(), "dev.mnemo.", "com.fasterxml.jackson.");

        Object config = load(fresh, dir.resolve("config.toml"));

        assertThat(config).hasToString(dev.mnemo.MemoriesConfig.defaults().toString());
        assertThat(fresh.loaded(TOML_MAPPER)).isFalse();
    }

    @Test
    void load_presentFileParsesWithJackson() throws Exception {
        // The control: the same check sees Jackson when a file is there to parse.
        Path file = Files.writeString(dir.resolve("config.toml"), "[memories]\nmax_unused_days = 12\n");
        FreshClasses fresh = new FreshClasses(getClass().getClassLoader(), "dev.mnemo.", "com.fasterxml.jackson.");

        Object config = load(fresh, file);

        assertThat(config.toString()).contains("maxUnusedDays=12");
        assertThat(fresh.loaded(TOML_MAPPER)).isTrue();
    }

    private static Object load(ClassLoader loader, Path file) throws Exception {
        Method load = Class.forName("dev.mnemo.MemoriesConfig", true, loader).getMethod("load", Path.class);
        return load.invoke(null, file);
    }
}
