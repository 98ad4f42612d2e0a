package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mnemo pending}, {@code approve} and {@code reject} on a real home with {@code approval = "ask"}. */
class PendingCommandsTest {

    @TempDir
    Path temp;

    private MnemoCliTest.Result mnemo(String... args) {
        return MnemoCliTest.run(temp, null, args);
    }

    private Path askingHome() throws IOException {
        Path home = Files.createDirectories(temp.resolve("home"));
        Files.writeString(home.resolve("config.toml"), "[memories]\napproval = \"ask\"\n");
        return home;
    }

    @Test
    void aNoteWaits_isListed_andApprovingItPutsItInTheMemoryFolder() throws IOException {
        Path home = askingHome();
        mnemo("--home", home.toString(), "note", "Deploys go out on Fridays before noon only");

        MnemoCliTest.Result pending = mnemo("--home", home.toString(), "pending");
        Matcher id = Pattern.compile("(?m)^(note:\\S+)\\s+note\\s+").matcher(pending.out());
        assertThat(id.find()).as(pending.out()).isTrue();
        MnemoCliTest.Result approved = mnemo("--home", home.toString(), "approve", id.group(1));

        assertThat(pending.out()).contains("Deploys go out on Fridays before noon only");
        assertThat(approved.exitCode()).as(approved.err()).isZero();
        assertThat(approved.out()).startsWith("approved " + id.group(1));
        assertThat(mnemo("--home", home.toString(), "pending").out()).contains("nothing is waiting for approval");
        assertThat(mnemo("--home", home.toString(), "search", "Fridays").out()).contains("Fridays before noon");
    }

    @Test
    void rejectingANote_forgetsIt() throws IOException {
        Path home = askingHome();
        mnemo("--home", home.toString(), "note", "Remember the staging password hint");
        String json = mnemo("--home", home.toString(), "pending", "--json").out();
        Matcher id = Pattern.compile("\"id\" : \"(note:[^\"]+)\"").matcher(json);
        assertThat(id.find()).as(json).isTrue();

        MnemoCliTest.Result rejected = mnemo("--home", home.toString(), "reject", id.group(1));

        assertThat(rejected.exitCode()).as(rejected.err()).isZero();
        assertThat(mnemo("--home", home.toString(), "pending", "--json").out().strip()).isEqualTo("[ ]");
        assertThat(filesMentioning(home.resolve("memories"), "staging password")).isEmpty();
    }

    /** The files under {@code folder} (none when it is missing) whose text contains {@code text}. */
    private static java.util.List<Path> filesMentioning(Path folder, String text) throws IOException {
        if (!Files.isDirectory(folder)) {
            return java.util.List.of();
        }
        try (var files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).filter(file -> {
                try {
                    return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8).contains(text);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

    @Test
    void anIdNothingPendingHas_isAUsageErrorNamingThePendingCommand() throws IOException {
        Path home = askingHome();
        mnemo("--home", home.toString(), "note", "something");

        MnemoCliTest.Result approve = mnemo("--home", home.toString(), "approve", "note:nope");
        MnemoCliTest.Result reject = mnemo("--home", home.toString(), "reject", "stage1:nope");

        assertThat(approve.exitCode()).isEqualTo(2);
        assertThat(approve.err()).contains("nothing pending has id 'note:nope'", "`mnemo pending`");
        assertThat(reject.exitCode()).isEqualTo(2);
    }

    @Test
    void withAutoApproval_pendingSaysNothingWaitsAndHowToAsk() throws IOException {
        Path home = MnemoJar.homeWithMemories(temp.resolve("home"));

        MnemoCliTest.Result pending = mnemo("--home", home.toString(), "pending");

        assertThat(pending.exitCode()).isZero();
        assertThat(pending.out()).contains("approval is \"auto\"", "approval = \"ask\"");
    }
}
