package dev.mnemo.console;

/** A request the console answers with an error status and a short message (shown escaped). */
final class HttpProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    HttpProblem(int status, String message) {
        super(message);
        this.status = status;
    }

    int status() {
        return status;
    }

    static HttpProblem badRequest(String message) {
        return new HttpProblem(400, message);
    }

    static HttpProblem notFound(String message) {
        return new HttpProblem(404, message);
    }

    static HttpProblem forbidden(String message) {
        return new HttpProblem(403, message);
    }
}
