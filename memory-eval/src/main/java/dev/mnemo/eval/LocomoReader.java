package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads LoCoMo's {@code locomo10.json}: a list of samples, each with a {@code sample_id}, a
 * {@code conversation} ({@code speaker_a}, {@code speaker_b}, {@code session_N} turn lists of
 * {@code speaker}, {@code dia_id}, {@code text} and maybe {@code blip_caption}, and each
 * {@code session_N_date_time} such as {@code 1:56 pm on 8 May, 2023}) and its {@code qa} list
 * ({@code question}, {@code answer} or, in category 5, {@code adversarial_answer}, {@code category}).
 * The first speaker's turns are recorded as the user's, the second's as the assistant's, each
 * prefixed with the speaker's name.
 */
final class LocomoReader {

    static final String DATE_PATTERN = "h:mm a 'on' d MMMM, yyyy";
    static final String ADVERSARIAL = "5";
    private static final Pattern SESSION = Pattern.compile("session_(\\d+)");

    private LocomoReader() {}

    static BenchmarkSet read(Path file) {
        BenchmarkFiles.Parsed parsed = BenchmarkFiles.readList(file, "LoCoMo");
        List<BenchmarkSet.Conversation> conversations = new ArrayList<>();
        for (JsonNode sample : parsed.list()) {
            conversations.add(conversation(sample));
        }
        return new BenchmarkSet(Benchmark.LOCOMO, parsed.fingerprint(), conversations);
    }

    private static BenchmarkSet.Conversation conversation(JsonNode sample) {
        String id = BenchmarkFiles.text(sample, "sample_id", "a LoCoMo sample");
        String where = "LoCoMo sample " + id;
        JsonNode conversation = sample.path("conversation");
        String speakerA = BenchmarkFiles.text(conversation, "speaker_a", where + "'s conversation");
        List<Integer> numbers = new ArrayList<>();
        for (Map.Entry<String, JsonNode> field : conversation.properties()) {
            Matcher m = SESSION.matcher(field.getKey());
            if (m.matches() && field.getValue().isArray()) {
                numbers.add(Integer.parseInt(m.group(1)));
            }
        }
        numbers.sort(Comparator.naturalOrder());
        List<BenchmarkSet.Session> sessions = new ArrayList<>();
        for (int n : numbers) {
            String key = "session_" + n;
            Instant start = BenchmarkFiles.date(BenchmarkFiles.text(conversation, key + "_date_time", where), DATE_PATTERN,
                    where + " " + key);
            List<BenchmarkSet.Turn> turns = new ArrayList<>();
            for (JsonNode turn : conversation.get(key)) {
                String speaker = BenchmarkFiles.text(turn, "speaker", where + " " + key);
                String text = speaker + ": " + turn.path("text").asText("");
                if (turn.hasNonNull("blip_caption")) {
                    text += " [shares a picture: " + turn.get("blip_caption").asText() + "]";
                }
                turns.add(new BenchmarkSet.Turn(speaker.equals(speakerA), text));
            }
            sessions.add(new BenchmarkSet.Session(String.valueOf(n), start, turns));
        }
        if (sessions.isEmpty()) {
            throw new IllegalArgumentException(where + " has no session_N turn lists");
        }
        List<BenchmarkSet.Question> questions = new ArrayList<>();
        int i = 0;
        for (JsonNode qa : sample.path("qa")) {
            i++;
            String category = BenchmarkFiles.text(qa, "category", where + " question " + i);
            boolean adversarial = category.equals(ADVERSARIAL);
            // Category 5 is graded against its misleading answer; any other against its answer.
            String preferred = adversarial && qa.hasNonNull("adversarial_answer") ? "adversarial_answer"
                    : qa.hasNonNull("answer") ? "answer" : "adversarial_answer";
            String answer = BenchmarkFiles.text(qa, preferred, where + " question " + i);
            questions.add(new BenchmarkSet.Question(id + "-q" + i, BenchmarkFiles.text(qa, "question",
                    where + " question " + i), answer, category, adversarial));
        }
        Instant last = sessions.stream().map(BenchmarkSet.Session::end).max(Comparator.naturalOrder()).orElseThrow();
        return new BenchmarkSet.Conversation(id, sessions, questions, last.plus(Duration.ofDays(1)));
    }
}
