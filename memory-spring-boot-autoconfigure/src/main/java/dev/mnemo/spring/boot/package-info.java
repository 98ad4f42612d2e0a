/**
 * Spring Boot auto-configuration for Mnemo: {@link dev.mnemo.spring.boot.MnemoAutoConfiguration}
 * (one {@code MemoryEngine} for the application or a {@code MemoryEngines} with one per user, as
 * {@code mnemo.tenancy} says, over the application's {@code ChatModel}; the {@code MnemoAdvisor}
 * bean for {@code ChatClient}s to add; the scheduled pipeline; health and metrics), its
 * {@link dev.mnemo.spring.boot.MnemoProperties} ({@code mnemo.*}) and
 * {@link dev.mnemo.spring.boot.MemoryEngineBuilderCustomizer}.
 */
package dev.mnemo.spring.boot;
