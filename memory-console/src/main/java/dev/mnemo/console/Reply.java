package dev.mnemo.console;

import java.nio.charset.StandardCharsets;

/**
 * What the console answers: a status, a content type and a body, or a redirect.
 *
 * @param location for a redirect, where to; else null
 */
record Reply(int status, String contentType, byte[] body, String location) {

    static final String HTML = "text/html; charset=utf-8";
    static final String JSON = "application/json; charset=utf-8";

    static Reply html(int status, String html) {
        return new Reply(status, HTML, html.getBytes(StandardCharsets.UTF_8), null);
    }

    static Reply json(String json) {
        return new Reply(200, JSON, json.getBytes(StandardCharsets.UTF_8), null);
    }

    /** 303 See Other to one of the console's own pages (after a POST, so a reload never posts again). */
    static Reply redirect(String location) {
        if (!location.startsWith("/") || location.startsWith("//")) {
            throw new IllegalArgumentException("the console redirects to its own pages only, not " + location);
        }
        return new Reply(303, null, new byte[0], location);
    }
}
