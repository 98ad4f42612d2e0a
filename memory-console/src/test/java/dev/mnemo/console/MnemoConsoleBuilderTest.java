package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MnemoConsoleBuilderTest {

    @Test
    void build_withoutAnEngine_namesIt() {
        assertThatThrownBy(() -> MnemoConsole.builder().build()).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("engine");
    }

    @Test
    void port_outOfRange_namesTheValue() {
        assertThatThrownBy(() -> MnemoConsole.builder().port(70_000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port must be between 0 (a free one) and 65535, was 70000");
        assertThatThrownBy(() -> MnemoConsole.builder().port(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sessionIdleTimeout_mustBePositive_andDefaultsToThirtyMinutes() {
        assertThatThrownBy(() -> MnemoConsole.builder().sessionIdleTimeout(java.time.Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("sessionIdleTimeout must be positive, was PT0S");
        org.assertj.core.api.Assertions.assertThat(MnemoConsole.DEFAULT_SESSION_IDLE_TIMEOUT)
                .isEqualTo(java.time.Duration.ofMinutes(30));
    }

    @Test
    void label_mustNotBeBlank() {
        assertThatThrownBy(() -> MnemoConsole.builder().label(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("label must not be blank");
    }
}
