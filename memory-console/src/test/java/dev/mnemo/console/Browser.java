package dev.mnemo.console;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
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

    /** Saves the window as {@code console-<page>.png} under {@code -Dmnemo.screenshots}, when it is set. */
    void screenshot(String page) {
        Optional<Path> folder = screenshotFolder();
        if (folder.isEmpty()) {
            return;
        }
        File shot = driver.getScreenshotAs(OutputType.FILE);
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
