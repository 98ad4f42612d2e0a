package dev.mnemo.examples.spring;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * A terminal chat with long-term memory: {@code memory-spring-boot-starter} plus Spring AI's OpenAI
 * starter. Run it with {@code OPENAI_API_KEY} set (and {@code SPRING_AI_OPENAI_BASE_URL} for an
 * OpenAI-compatible server); conversations and memories live in {@code mnemo.home}
 * ({@code ~/.mnemo} by default). See {@code application.properties}.
 */
@SpringBootApplication
public class SpringChatApplication {

    public static void main(String[] args) {
        SpringApplication.run(SpringChatApplication.class, args);
    }

    /** Reads questions from the terminal, one conversation per run; off with {@code chat.terminal=false}. */
    @Bean
    @ConditionalOnProperty(name = "chat.terminal", havingValue = "true", matchIfMissing = true)
    CommandLineRunner terminal(MemoryChat chat) {
        return args -> {
            String conversation = UUID.randomUUID().toString();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            System.out.print("you> ");
            for (String line = in.readLine(); line != null && !line.isBlank(); line = in.readLine()) {
                chat.stream(conversation, line).doOnNext(System.out::print).blockLast();
                System.out.print("\nyou> ");
            }
        };
    }
}
