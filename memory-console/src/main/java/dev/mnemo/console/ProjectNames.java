package dev.mnemo.console;

import dev.mnemo.MemoryEngine;
import dev.mnemo.ProjectKeys;
import dev.mnemo.ThreadInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Projects as a person reads them: a project folder's slug is its key's readable part, a hyphen and
 * 16 hex digits of a hash ({@link ProjectKeys#slug}); the console shows the key the conversations
 * name, or else the readable part, and keeps the whole slug for the hover title.
 */
final class ProjectNames {

    private static final Pattern SLUG = Pattern.compile("(.+)-[0-9a-f]{16}");

    private final Map<String, String> keysBySlug;

    private ProjectNames(Map<String, String> keysBySlug) {
        this.keysBySlug = keysBySlug;
    }

    /** The names of the projects the engine's conversations name (one read of the thread list). */
    static ProjectNames of(MemoryEngine engine) {
        Map<String, String> keys = new HashMap<>();
        for (ThreadInfo thread : engine.threads().list()) {
            thread.project().ifPresent(key -> keys.putIfAbsent(ProjectKeys.slug(key), key));
        }
        return new ProjectNames(keys);
    }

    /** The readable part of a slug ({@code billing} of {@code billing-3f2a9c1d0e4b5a6c}); the slug when it has no hash. */
    static String readable(String slug) {
        Matcher matcher = SLUG.matcher(slug);
        return matcher.matches() ? matcher.group(1) : slug;
    }

    /** The last path segment of a project key ({@code billing} of {@code /home/ana/src/billing}); the key when it has none. */
    static String shortKey(String key) {
        String trimmed = key.replaceAll("[/\\\\]+$", "");
        int cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
        String last = trimmed.substring(cut + 1);
        return last.isEmpty() ? key : last;
    }

    /** What to show for a project folder's slug: its key's last segment when a conversation names it, else the slug's readable part. */
    String name(String slug) {
        return Optional.ofNullable(keysBySlug.get(slug)).map(ProjectNames::shortKey).orElseGet(() -> readable(slug));
    }

    /** The hover title of a project folder: its key when known, and its folder. */
    String title(String slug) {
        return Optional.ofNullable(keysBySlug.get(slug)).map(key -> "project " + key + " · ").orElse("")
                + ProjectKeys.FOLDER + "/" + slug;
    }
}
