/**
 * Opt-in capture of an application's own Logback events into Mnemo's thread logs:
 * {@link dev.mnemo.logback.MnemoLogbackAppender}.
 */
package dev.mnemo.logback;
