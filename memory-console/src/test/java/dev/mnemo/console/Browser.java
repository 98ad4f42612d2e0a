package dev.mnemo.console;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven by Selenium through Debian's chromedriver: both are named by
 * their paths, so Selenium Manager never looks for (or downloads) a browser or a driver. Started
 * with the flags this machine needs (no sandbox as root, no background networking) and a fresh
 * profile. Screenshots are written only when {@code -Dmnemo.screenshots=DIR} is set.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final String ABSENT = "skipped: no browser at /usr/bin/chromium; install Debian's chromium and"
            + " chromium-driver packages (apt-get install chromium chromium-driver) to run the console's browser tests";

    /** The window's width, and the heights a whole-page screenshot may take. */
    static final int WIDTH = 1280;
    static final int MIN_HEIGHT = 600;
    static final int MAX_HEIGHT = 8_000;

    final ChromeDriver driver;
    private final ChromeDriverService service;

    Browser(Path profile) {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1000", "--user-data-dir=" + profile.toAbsolutePath());
        driver = new ChromeDriver(service, options);
    }

    /** Whether the system browser is there to drive. */
    static boolean available() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /** A wait of at most 30 seconds for what the page should come to show. */
    WebDriverWait waiting() {
        return new WebDriverWait(driver, Duration.ofSeconds(30));
    }

    /**
     * Saves the whole page (not only what the window shows) as {@code console-<page>.png} under
     * {@code -Dmnemo.screenshots}, when it is set.
     */
    void screenshot(String page) {
        Optional<Path> folder = screenshotFolder();
        if (folder.isEmpty()) {
            return;
        }
        // The whole page, not the window's first screen: the viewport is made as tall as the page
        // for the shot, then given back.
        long height = ((Number) driver.executeScript(
                "return Math.ceil(Math.max(document.documentElement.scrollHeight, document.body.scrollHeight))"))
                .longValue();
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", WIDTH, "height",
                Math.max(MIN_HEIGHT, Math.min(height, MAX_HEIGHT)), "deviceScaleFactor", 1, "mobile", false));
        File shot;
        try {
            shot = driver.getScreenshotAs(OutputType.FILE);
        } finally {
            driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        }
        try {
            Files.createDirectories(folder.get());
            Files.copy(shot.toPath(), folder.get().resolve("console-" + page + ".png"),
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code -Dmnemo.screenshots}, a relative one taken from the repository's top folder. */
    private static Optional<Path> screenshotFolder() {
        String setting = System.getProperty("mnemo.screenshots", "").strip();
        if (setting.isEmpty()) {
            return Optional.empty();
        }
        Path folder = Path.of(setting);
        if (folder.isAbsolute()) {
            return Optional.of(folder);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("memory-console")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return Optional.of(dir.resolve(folder));
            }
        }
        return Optional.of(folder.toAbsolutePath());
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}
