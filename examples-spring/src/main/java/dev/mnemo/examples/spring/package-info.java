/**
 * A Spring Boot chat application with long-term memory from {@code memory-spring-boot-starter}:
 * {@link dev.mnemo.examples.spring.MemoryChat} is the code the Spring guide shows.
 */
package dev.mnemo.examples.spring;
