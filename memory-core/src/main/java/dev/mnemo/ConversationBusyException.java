package dev.mnemo;

/**
 * A second exchange was started on a conversation whose previous exchange has not ended: two
 * requests for one conversation at once would interleave their turns in its rollout. Nothing of the
 * refused exchange was recorded; the caller may retry once the first answer is complete, or tell
 * its user that the conversation is still answering.
 */
public class ConversationBusyException extends MemoryException {

    private static final long serialVersionUID = 1L;

    /** The conversation that was busy, as the refused request named it. */
    private final String conversationId;

    /**
     * An exception for a refused exchange, with a message naming the conversation.
     *
     * @param conversationId the conversation that is still answering a previous request
     */
    public ConversationBusyException(String conversationId) {
        super("conversation '" + conversationId + "' is still answering a previous request; its turns are "
                + "recorded one exchange at a time, so this request was refused before anything was recorded");
        this.conversationId = conversationId;
    }

    /**
     * The conversation that was busy.
     *
     * @return the conversation's id, as the refused request gave it
     */
    public String conversationId() {
        return conversationId;
    }
}
