/**
 * Mnemo's test kit: the contract suites every SPI implementation extends, test doubles that say
 * they are test doubles (a scripted {@link dev.mnemo.llm.LanguageModel}, an in-process server
 * speaking OpenAI's Chat Completions wire format), a JUnit extension giving each test a fresh
 * Mnemo home, {@link dev.mnemo.testkit.ProjectMemories} planting a memory folder whose projects
 * disagree, and {@link dev.mnemo.testkit.ChildJvm} for tests that need a second process. For
 * plug-in authors and for users testing their agents offline; never for production code.
 */
package dev.mnemo.testkit;
