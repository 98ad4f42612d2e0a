package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What {@link ServerPaths} keeps from the memory tools' results. */
class ServerPathsTest {

    @Test
    void absoluteRolloutPathsAndWorkingFolders_becomeTheirLastElement() {
        String recap = "thread_id: t1\nrollout_path: /var/lib/app/.mnemo/sessions/2026/03/02/rollout-x-t1.jsonl\n"
                + "cwd: C:\\Users\\svc\\shop\n\n# Deploying";
        String index = "- rollout_summaries/a.md (cwd=/srv/shop, rollout_path=/var/lib/app/.mnemo/sessions/r.jsonl, "
                + "updated_at=2026-03-02)";

        assertThat(ServerPaths.redactText(recap)).isEqualTo(
                "thread_id: t1\nrollout_path: rollout-x-t1.jsonl\ncwd: shop\n\n# Deploying");
        assertThat(ServerPaths.redactText(index))
                .isEqualTo("- rollout_summaries/a.md (cwd=shop, rollout_path=r.jsonl, updated_at=2026-03-02)");
    }

    @Test
    void otherTextAndRelativeValues_stayAsTheyAre() {
        String text = "Edit /etc/nginx/nginx.conf, then reload. cwd: \nrollout_path: sessions/r.jsonl\nmycwd: /x";

        assertThat(ServerPaths.redactText(text)).isEqualTo(text);
    }

    @Test
    void aToolResult_isRedactedInsideItsJsonStrings() {
        String result = "{\"path\":\"raw_memories.md\",\"content\":\"rollout_path: /home/svc/.mnemo/sessions/r.jsonl\\n\"}";

        assertThat(ServerPaths.redact(result))
                .isEqualTo("{\"path\":\"raw_memories.md\",\"content\":\"rollout_path: r.jsonl\\n\"}");
        assertThat(ServerPaths.redact("{\"entries\":[]}")).isEqualTo("{\"entries\":[]}");
    }
}
