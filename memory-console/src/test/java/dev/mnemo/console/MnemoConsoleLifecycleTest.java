package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MnemoConsoleLifecycleTest {

    @TempDir
    Path temp;

    private ConsoleHome home;

    @BeforeEach
    void openHome() {
        home = new ConsoleHome(temp.resolve("home"));
    }

    @AfterEach
    void closeHome() {
        home.close();
    }

    @Test
    void beforeStart_itHasNoAddress_andStartsOnlyOnce() {
        MnemoConsole console = MnemoConsole.builder().engine(home.engine).build();

        assertThatThrownBy(console::url).isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
        console.start();
        assertThat(console.url().toString()).startsWith("http://127.0.0.1:" + console.port() + "/?token=");
        assertThatThrownBy(console::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already");
        console.close();
        console.close();
        assertThatThrownBy(console::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void aTakenPort_failsToStart_namingIt() {
        int taken = home.console.port();
        MnemoConsole second = MnemoConsole.builder().engine(home.engine).port(taken).build();

        assertThatThrownBy(second::start).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("cannot listen on 127.0.0.1:" + taken);
        second.close();
    }

    @Test
    void eachConsole_hasItsOwnToken_andCloseStopsServing() {
        MnemoConsole other = MnemoConsole.builder().engine(home.engine).build().start();

        assertThat(other.url().getQuery()).isNotEqualTo(home.console.url().getQuery());
        int port = other.port();
        other.close();
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
        assertThat(home.engine.threads().list()).isEmpty();
    }
}
