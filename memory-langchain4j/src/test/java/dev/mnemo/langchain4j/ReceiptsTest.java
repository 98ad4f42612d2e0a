package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryReceipt;
import org.junit.jupiter.api.Test;

/** {@link Receipts}: what an instance keeps per conversation is bounded, and each tenant's is its own. */
class ReceiptsTest {

    @Test
    void keepsTheNewestReceiptOfAtMostKeptConversations_droppingTheLeastRecentlyAnsweredFirst() {
        Receipts receipts = new Receipts();
        for (int i = 0; i < Receipts.KEPT; i++) {
            receipts.put(new ConversationKey("", "c-" + i), MemoryReceipt.none("c-" + i));
        }
        receipts.put(new ConversationKey("", "c-0"), MemoryReceipt.none("c-0 again")); // c-0 answered again

        receipts.put(new ConversationKey("", "c-new"), MemoryReceipt.none("c-new"));

        assertThat(receipts.newest(new ConversationKey("", "c-1"))).isEmpty();
        assertThat(receipts.newest(new ConversationKey("", "c-0"))).contains(MemoryReceipt.none("c-0 again"));
        assertThat(receipts.newest(new ConversationKey("", "c-new"))).contains(MemoryReceipt.none("c-new"));
        assertThat(receipts.newest(new ConversationKey("", "c-" + (Receipts.KEPT - 1)))).isPresent();
    }

    @Test
    void twoTenantsWithTheSameConversationId_keepTheirOwnReceipts() {
        Receipts receipts = new Receipts();
        receipts.put(new ConversationKey("alice", "chat-1"), MemoryReceipt.none("alice's"));
        receipts.put(new ConversationKey("bob", "chat-1"), MemoryReceipt.none("bob's"));

        receipts.forget(new ConversationKey("bob", "chat-1"));

        assertThat(receipts.newest(new ConversationKey("alice", "chat-1"))).contains(MemoryReceipt.none("alice's"));
        assertThat(receipts.newest(new ConversationKey("bob", "chat-1"))).isEmpty();
    }
}
