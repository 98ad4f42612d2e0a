package dev.mnemo.spi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class HistoryLinesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void jsonLine_isByteForByteWhatAJsonLibraryWrites_forEveryAsciiCharacterAndBeyond() {
        StringBuilder text = new StringBuilder();
        for (char c = 0; c < 0x80; c++) {
            text.append(c);
        }
        text.append("é€\uD83D\uDE00 \u2028\u2029 <>&'/");
        String expected = JSON.createObjectNode().put("session_id", "s\"1\\").put("ts", 1_700_000_000L)
                .put("text", text.toString()) + "\n";

        assertThat(HistoryStore.jsonLine("s\"1\\", 1_700_000_000L, text.toString())).isEqualTo(expected);
    }

    @Test
    void jsonLine_readsBackAsTheSameFields() throws Exception {
        String line = HistoryStore.jsonLine("thread-1", 42, "line one\nline \"two\"\t\u0001");

        assertThat(line).endsWith("}\n").doesNotContain("\n{").hasLineCount(1);
        JsonNode node = JSON.readTree(line);
        assertThat(node.get("session_id").asText()).isEqualTo("thread-1");
        assertThat(node.get("ts").asLong()).isEqualTo(42);
        assertThat(node.get("text").asText()).isEqualTo("line one\nline \"two\"\t\u0001");
    }
}
