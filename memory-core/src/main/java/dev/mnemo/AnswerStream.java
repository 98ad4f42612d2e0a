package dev.mnemo;

/**
 * A streamed answer of a {@link MemorySession}. Feed it the model's chunks in order; show the
 * user what {@link #push} returns; call {@link #finish()} once when the model is done. Not for
 * concurrent use: one stream per answer.
 */
public interface AnswerStream {

    /**
     * Feeds the next chunk of the model's answer.
     *
     * @param chunk the next piece of the model's output, as it arrived
     * @return the part that may be shown to the user now (citation markup held back or removed),
     *     possibly {@code ""}
     */
    String push(String chunk);

    /**
     * Ends the answer: returns the whole visible text with its citation, records the visible text
     * and counts the cited memories once. Calling it again returns the same message and does
     * nothing more.
     *
     * @return the finished answer: its whole visible text, its citation and its receipt
     */
    AssistantMessage finish();
}
