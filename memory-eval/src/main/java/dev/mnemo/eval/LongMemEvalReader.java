package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads LongMemEval's {@code longmemeval_s_cleaned.json} (or {@code _m}, {@code _oracle}): a list
 * of entries, each one question ({@code question_id}, {@code question_type}, {@code question},
 * {@code answer}, {@code question_date}) with its own haystack ({@code haystack_session_ids},
 * {@code haystack_dates} such as {@code 2023/05/20 (Sat) 02:21}, and {@code haystack_sessions}:
 * lists of {@code role}/{@code content} turns). An id ending {@code _abs} is an abstention
 * question. Each entry is one conversation of one question.
 */
final class LongMemEvalReader {

    static final String DATE_PATTERN = "yyyy/MM/dd (EEE) HH:mm";
    static final String ABSTENTION_SUFFIX = "_abs";

    private LongMemEvalReader() {}

    static BenchmarkSet read(Path file) {
        BenchmarkFiles.Parsed parsed = BenchmarkFiles.readList(file, "LongMemEval");
        List<BenchmarkSet.Conversation> conversations = new ArrayList<>();
        for (JsonNode entry : parsed.list()) {
            conversations.add(conversation(entry));
        }
        return new BenchmarkSet(Benchmark.LONGMEMEVAL, parsed.fingerprint(), conversations);
    }

    private static BenchmarkSet.Conversation conversation(JsonNode entry) {
        String id = BenchmarkFiles.text(entry, "question_id", "a LongMemEval entry");
        String where = "LongMemEval question " + id;
        JsonNode ids = entry.path("haystack_session_ids");
        JsonNode dates = entry.path("haystack_dates");
        JsonNode haystack = entry.path("haystack_sessions");
        if (!haystack.isArray() || dates.size() != haystack.size()) {
            throw new IllegalArgumentException(where + ": haystack_sessions and haystack_dates differ in length or are"
                    + " missing");
        }
        List<BenchmarkSet.Session> sessions = new ArrayList<>();
        for (int i = 0; i < haystack.size(); i++) {
            List<BenchmarkSet.Turn> turns = new ArrayList<>();
            for (JsonNode turn : haystack.get(i)) {
                String role = BenchmarkFiles.text(turn, "role", where + " session " + i);
                turns.add(new BenchmarkSet.Turn(role.equals("user"), turn.path("content").asText("")));
            }
            String sessionId = ids.has(i) ? ids.get(i).asText() : String.valueOf(i + 1);
            sessions.add(new BenchmarkSet.Session(sessionId, BenchmarkFiles.date(dates.get(i).asText(), DATE_PATTERN,
                    where + " session " + sessionId), turns));
        }
        sessions.sort(Comparator.comparing(BenchmarkSet.Session::start));
        Instant asked = BenchmarkFiles.date(BenchmarkFiles.text(entry, "question_date", where), DATE_PATTERN, where);
        Instant afterLast = sessions.stream().map(BenchmarkSet.Session::end).max(Comparator.naturalOrder())
                .map(end -> end.plusSeconds(60)).orElse(asked);
        String type = BenchmarkFiles.text(entry, "question_type", where);
        BenchmarkSet.Question question = new BenchmarkSet.Question(id, BenchmarkFiles.text(entry, "question", where),
                BenchmarkFiles.text(entry, "answer", where), type, id.endsWith(ABSTENTION_SUFFIX));
        return new BenchmarkSet.Conversation(id, sessions, List.of(question), asked.isAfter(afterLast) ? asked : afterLast);
    }
}
