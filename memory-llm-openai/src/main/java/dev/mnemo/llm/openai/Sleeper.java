package dev.mnemo.llm.openai;

import java.time.Duration;

/** How the client waits before a retry; tests pass one that records the waits instead of sleeping. */
@FunctionalInterface
interface Sleeper {

    /** Waits with {@link Thread#sleep(long)}. */
    Sleeper THREAD_SLEEP = duration -> Thread.sleep(duration.toMillis());

    void sleep(Duration duration) throws InterruptedException;
}
