package dev.mnemo.console;

import dev.mnemo.MemoryEngine;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/** {@link MnemoConsole.Builder}: holds the settings; {@link #build()} checks them and makes the server. */
final class ConsoleBuilder implements MnemoConsole.Builder {

    private MemoryEngine engine;
    private int port;
    private InetAddress bindAddress = InetAddress.getLoopbackAddress();
    private String label = "Mnemo";
    private ExecutorService executor;
    private Clock clock = Clock.systemUTC();
    private Duration sessionIdleTimeout = MnemoConsole.DEFAULT_SESSION_IDLE_TIMEOUT;

    @Override
    public MnemoConsole.Builder engine(MemoryEngine engine) {
        this.engine = Objects.requireNonNull(engine, "engine");
        return this;
    }

    @Override
    public MnemoConsole.Builder port(int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 (a free one) and 65535, was " + port);
        }
        this.port = port;
        return this;
    }

    @Override
    public MnemoConsole.Builder bindAddress(InetAddress address) {
        this.bindAddress = Objects.requireNonNull(address, "address");
        return this;
    }

    @Override
    public MnemoConsole.Builder label(String label) {
        Objects.requireNonNull(label, "label");
        if (label.isBlank()) {
            throw new IllegalArgumentException("label must not be blank");
        }
        this.label = label;
        return this;
    }

    @Override
    public MnemoConsole.Builder executor(ExecutorService executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
        return this;
    }

    @Override
    public MnemoConsole.Builder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    @Override
    public MnemoConsole.Builder sessionIdleTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("sessionIdleTimeout must be positive, was " + timeout);
        }
        this.sessionIdleTimeout = timeout;
        return this;
    }

    @Override
    public MnemoConsole build() {
        Objects.requireNonNull(engine, "engine: MnemoConsole.builder().engine(...) is required");
        return new ConsoleServer(new Settings(engine, port, bindAddress, label, Optional.ofNullable(executor), clock,
                sessionIdleTimeout));
    }

    /** What a console is built with. */
    record Settings(MemoryEngine engine, int port, InetAddress bindAddress, String label,
            Optional<ExecutorService> executor, Clock clock, Duration sessionIdleTimeout) {}
}
