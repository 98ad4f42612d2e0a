/**
 * Spring Boot auto-configuration for Mnemo: {@link dev.mnemo.spring.boot.MnemoAutoConfiguration}
 * (a {@code MemoryEngine} over the application's {@code ChatModel}, the {@code MnemoAdvisor} on
 * every {@code ChatClient}, health and metrics), its {@link dev.mnemo.spring.boot.MnemoProperties}
 * ({@code mnemo.*}) and {@link dev.mnemo.spring.boot.MemoryEngineBuilderCustomizer}.
 */
package dev.mnemo.spring.boot;
