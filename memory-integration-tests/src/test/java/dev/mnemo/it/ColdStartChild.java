package dev.mnemo.it;

import dev.mnemo.MemoryEngine;
import java.nio.file.Path;

/**
 * A fresh JVM that opens an engine on an existing home and builds its instructions, then prints
 * {@link #MARK} before it closes the engine: what {@link ColdStartClassesTest} reads its class
 * loading up to. Usage: {@code ColdStartChild <home>}.
 */
public final class ColdStartChild {

    /** Printed once the engine is open and its instructions are built. */
    static final String MARK = "-- engine open, instructions built --";

    private ColdStartChild() {}

    public static void main(String[] args) {
        try (MemoryEngine engine = MemoryEngine.builder().home(Path.of(args[0])).build()) {
            if (engine.buildDeveloperInstructions().isEmpty()) {
                throw new IllegalStateException("no memory section built in " + args[0]);
            }
            System.out.println(MARK);
            System.out.flush();
        }
    }
}
