package dev.mnemo.internal.startup;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Startup step 2: the memory root exists and {@code extensions/ad_hoc/instructions.md} is seeded. */
final class MemoryRoot {

    private static final Logger LOG = LoggerFactory.getLogger(MemoryRoot.class);

    static final String AD_HOC_INSTRUCTIONS = load();

    private MemoryRoot() {}

    /**
     * Creates the root, replaces a symlinked {@code extensions/} by a real folder (never writing
     * through the link), and writes the ad-hoc instructions unless the file exists: user edits survive.
     */
    static void prepare(Path root) throws IOException {
        Files.createDirectories(root);
        Path extensions = root.resolve("extensions");
        if (Files.isSymbolicLink(extensions)) {
            LOG.warn("removing symlinked {} before seeding memory extensions", extensions);
            Files.delete(extensions);
        }
        Path adHoc = Files.createDirectories(extensions.resolve("ad_hoc"));
        Path instructions = adHoc.resolve("instructions.md");
        if (Files.isSymbolicLink(instructions)) {
            Files.delete(instructions);
        }
        if (!Files.exists(instructions, LinkOption.NOFOLLOW_LINKS)) {
            seed(adHoc, instructions);
        }
    }

    /**
     * Writes the seed whole under a hidden name, then links it into place, so a reader never sees it
     * half written. Never overwrites: the user may have edited it, or made it meanwhile.
     */
    private static void seed(Path folder, Path instructions) throws IOException {
        Path temp = Files.createTempFile(folder, ".instructions-", ".tmp");
        try {
            Files.writeString(temp, AD_HOC_INSTRUCTIONS, StandardCharsets.UTF_8);
            Files.createLink(instructions, temp);
        } catch (FileAlreadyExistsException e) {
            // Made meanwhile: kept.
        } catch (UnsupportedOperationException e) {
            // No hard links on this file system: create-new and write, as small a window as it gets.
            try {
                Files.writeString(instructions, AD_HOC_INSTRUCTIONS, StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException made) {
                // Made meanwhile: kept.
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static String load() {
        try (InputStream in = MemoryRoot.class.getResourceAsStream("ad_hoc_instructions.md")) {
            if (in == null) {
                throw new IllegalStateException("missing resource ad_hoc_instructions.md");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
