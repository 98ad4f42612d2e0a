package dev.mnemo.internal.read;

import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the paths of the serving machine out of text bound for a model that is handed the memory
 * tools: a file under the memory folder is named relative to it, as the tools take it, and
 * anything else under the home (the raw session logs that recaps name as {@code rollout_path}) as
 * {@code <mnemo-home>/...}, which no tool opens. A hosted model has no shell on this machine; the
 * absolute paths would only tell a model provider how the server is laid out.
 */
public final class ServerPaths {

    /** What the home folder is called instead. */
    public static final String HOME_PLACEHOLDER = "<mnemo-home>";

    private final String memoryRootPrefix;
    private final String home;
    /** The home, where it is a whole path or a path's start: not {@code /srv/mnemo-old} for {@code /srv/mnemo}. */
    private final Pattern homePath;

    /** @param memoryRoot the memory folder; its parent is taken as the home */
    public ServerPaths(Path memoryRoot) {
        Path root = Objects.requireNonNull(memoryRoot, "memoryRoot").toAbsolutePath().normalize();
        this.memoryRootPrefix = root + "/";
        Path parent = root.getParent();
        // A home at the file-system root would make every absolute path look like one of ours.
        this.home = parent == null || parent.getParent() == null ? null : parent.toString();
        this.homePath = home == null ? null : Pattern.compile(Pattern.quote(home) + "(?=/|[^\\w.\\-]|$)");
    }

    /** {@code text} with this machine's memory folder and home taken out; the same instance when neither occurs. */
    public String scrub(String text) {
        if (home == null ? !text.contains(memoryRootPrefix) : !text.contains(home)) {
            return text;
        }
        String relative = text.replace(memoryRootPrefix, "");
        return home == null ? relative
                : homePath.matcher(relative).replaceAll(Matcher.quoteReplacement(HOME_PLACEHOLDER));
    }

    /**
     * The inverse of {@link #scrub} for the home: {@code <mnemo-home>} in text a model wrote back
     * (an edit's old text it read scrubbed) becomes this machine's home again, so that what is on
     * disk keeps the paths it had. {@code escape} is applied to the home first (JSON, for tool
     * arguments). Paths inside the memory folder stay relative, as the tools take them.
     */
    public String restore(String text, java.util.function.UnaryOperator<String> escape) {
        if (home == null || !text.contains(HOME_PLACEHOLDER)) {
            return text;
        }
        return text.replace(HOME_PLACEHOLDER, escape.apply(home));
    }
}
