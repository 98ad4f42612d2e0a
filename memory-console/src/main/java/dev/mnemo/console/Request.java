package dev.mnemo.console;

/**
 * A request that passed the guard: its session, its query parameters and, for a POST, its form
 * (already checked for its CSRF token).
 */
record Request(ConsoleSession session, Params query, Params form) {}
