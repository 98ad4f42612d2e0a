package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mnemo ui} from the packaged jar, as a user starts it: the console's address is the first
 * line on standard output (logs go to standard error), the token in it opens the console, and the
 * process serves until it is stopped.
 */
@Timeout(120)
class UiProcessIT {

    @TempDir
    Path dir;

    @Test
    void ui_printsTheAddressFirst_andServesItUntilStopped() throws Exception {
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        ProcessBuilder builder = new ProcessBuilder(MnemoJar.command(home, "ui"))
                .redirectError(dir.resolve("err.txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().keySet().removeIf(key -> key.startsWith("MNEMO_") || key.startsWith("OPENAI_"));
        Process process = builder.start();
        try {
            String first = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();

            assertThat(first).matches("Mnemo console: http://127\\.0\\.0\\.1:\\d+/\\?token=[A-Za-z0-9_-]{43}");
            URI url = URI.create(first.substring("Mnemo console: ".length()));
            HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                    .cookieHandler(new java.net.CookieManager()).build();
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(url).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>Overview · Mnemo console</title>");
            assertThat(process.isAlive()).isTrue();
        } finally {
            process.destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("mnemo ui stops on SIGTERM").isTrue();
        }
    }
}
