package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.MemoriesConfig;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.net.URL;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The {@code mnemo.memories.*} defaults and ranges users see in their IDE (the configuration
 * metadata the build generates) are core's: {@link MemoriesConfig#defaults()} and the clamps
 * {@link MemoriesConfig.Builder#build()} applies. {@link MnemoProperties.Memories} takes its
 * defaults from core, which the configuration processor cannot read, so the IDE's copy is written
 * in {@code additional-spring-configuration-metadata.json}; this test keeps it from drifting.
 */
class ConfigurationMetadataTest {

    private static final String PREFIX = "mnemo.memories.";
    private static final Pattern RANGE = Pattern.compile("\\((\\d+)\\.\\.(\\d+)[;)]");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void unboundMemoriesProperties_giveCoresDefaults() {
        assertThat(new MnemoProperties.Memories().toConfig()).isEqualTo(MemoriesConfig.defaults());
    }

    @Test
    void everyMemoriesKey_isInTheMetadata_withCoresDefault() throws Exception {
        Map<String, JsonNode> properties = memoriesProperties();
        MemoriesConfig defaults = MemoriesConfig.defaults();
        for (RecordComponent component : MemoriesConfig.class.getRecordComponents()) {
            String name = PREFIX + kebab(component.getName());
            assertThat(properties).as("metadata for %s", name).containsKey(name);
            JsonNode expected = expectedDefault(component.getAccessor().invoke(defaults));
            assertThat(properties.get(name).get("defaultValue")).as("default of %s", name).isEqualTo(expected);
        }
        assertThat(properties).hasSize(MemoriesConfig.class.getRecordComponents().length);
    }

    @Test
    void everyRangeInAMemoriesDescription_isTheClampCoreApplies() throws Exception {
        Map<String, JsonNode> properties = memoriesProperties();
        for (RecordComponent component : MemoriesConfig.class.getRecordComponents()) {
            if (component.getType() != int.class) {
                continue;
            }
            String name = PREFIX + kebab(component.getName());
            String description = properties.get(name).path("description").asText();
            Matcher range = RANGE.matcher(description);
            assertThat(range.find()).as("a range (min..max) in the description of %s: %s", name, description)
                    .isTrue();
            assertThat(Integer.parseInt(range.group(1))).as("lowest value of %s in its description", name)
                    .isEqualTo(clamped(component, Long.MIN_VALUE));
            assertThat(Integer.parseInt(range.group(2))).as("highest value of %s in its description", name)
                    .isEqualTo(clamped(component, Long.MAX_VALUE));
        }
    }

    /** The {@code mnemo.memories.*} entries of this module's generated metadata, by name. */
    private static Map<String, JsonNode> memoriesProperties() throws Exception {
        Map<String, JsonNode> properties = new LinkedHashMap<>();
        for (JsonNode property : generatedMetadata().get("properties")) {
            String name = property.get("name").asText();
            if (name.startsWith(PREFIX)) {
                properties.put(name, property);
            }
        }
        return properties;
    }

    /**
     * This module's {@code META-INF/spring-configuration-metadata.json} (other jars on the class path
     * have their own): the processor's output merged with the additional metadata.
     */
    private static JsonNode generatedMetadata() throws Exception {
        String module = MnemoProperties.class.getProtectionDomain().getCodeSource().getLocation().toString();
        List<URL> all = Collections.list(MnemoProperties.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
        URL ours = all.stream().filter(url -> url.toString().contains(module)).findFirst()
                .orElseThrow(() -> new AssertionError("no generated metadata under " + module + " in " + all));
        try (InputStream in = ours.openStream()) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new AssertionError("unreadable metadata " + ours, e);
        }
    }

    /** A default as the metadata writes it: enums in lower case, no entry for an empty optional. */
    private static JsonNode expectedDefault(Object value) {
        if (value instanceof Optional<?> optional) {
            return optional.<JsonNode>map(JSON::valueToTree).orElse(null);
        }
        if (value instanceof Enum<?> constant) {
            return JSON.valueToTree(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        return JSON.valueToTree(value);
    }

    /** What {@link MemoriesConfig.Builder#build()} makes of {@code value} for {@code component}. */
    private static int clamped(RecordComponent component, long value) throws Exception {
        MemoriesConfig.Builder builder = MemoriesConfig.builder();
        MemoriesConfig.Builder.class.getMethod(component.getName(), long.class).invoke(builder, value);
        return (int) component.getAccessor().invoke(builder.build());
    }

    /** {@code maxUnusedDays} as {@code max-unused-days}, the way Boot names the bound property. */
    private static String kebab(String camel) {
        return camel.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }
}
