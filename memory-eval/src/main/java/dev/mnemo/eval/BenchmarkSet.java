package dev.mnemo.eval;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A benchmark file as read: its conversations, each with its dated sessions and its questions.
 *
 * @param fingerprint the file's content hash ({@code sha256:…}), recorded so that a run of another
 *     file is refused in the same run directory
 */
record BenchmarkSet(Benchmark benchmark, String fingerprint, List<Conversation> conversations) {

    BenchmarkSet {
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(fingerprint, "fingerprint");
        conversations = List.copyOf(conversations);
    }

    /** The first {@code n} conversations. */
    BenchmarkSet limit(int n) {
        return new BenchmarkSet(benchmark, fingerprint, conversations.subList(0, Math.min(n, conversations.size())));
    }

    /** Each conversation with only its first {@code n} questions. */
    BenchmarkSet limitQuestions(int n) {
        return new BenchmarkSet(benchmark, fingerprint, conversations.stream().map(c -> new Conversation(c.id(),
                c.sessions(), c.questions().subList(0, Math.min(n, c.questions().size())), c.askedAt())).toList());
    }

    /**
     * One conversation history and the questions asked after it.
     *
     * @param askedAt when the questions are asked: LongMemEval's question date, else a day after the
     *     last session
     */
    record Conversation(String id, List<Session> sessions, List<Question> questions, Instant askedAt) {
        Conversation {
            Objects.requireNonNull(id, "id");
            sessions = List.copyOf(sessions);
            questions = List.copyOf(questions);
            Objects.requireNonNull(askedAt, "askedAt");
        }

        /** Every session as dated text, oldest first: what the full-context baseline is given. */
        List<String> transcripts() {
            return sessions.stream().map(Session::transcript).toList();
        }
    }

    /** One dated session; its turns a minute apart from {@code start}. */
    record Session(String id, Instant start, List<Turn> turns) {
        Session {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(start, "start");
            turns = List.copyOf(turns);
        }

        Instant end() {
            return start.plusSeconds(60L * turns.size());
        }

        String transcript() {
            StringBuilder text = new StringBuilder("## Session ").append(id).append(", ").append(start).append('\n');
            for (Turn turn : turns) {
                text.append(turn.user() ? "user: " : "assistant: ").append(turn.text()).append('\n');
            }
            return text.toString();
        }
    }

    /**
     * One turn.
     *
     * @param user the user's turn (LoCoMo: the first speaker's), else the assistant's
     * @param text what was said (LoCoMo: prefixed with the speaker's name)
     */
    record Turn(boolean user, String text) {
        Turn {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * One question and its reference answer.
     *
     * @param category LoCoMo's category number, or LongMemEval's question type
     * @param special LoCoMo's adversarial category 5, or a LongMemEval abstention ({@code _abs}):
     *     the right answer is to say the conversations do not tell
     */
    record Question(String id, String question, String answer, String category, boolean special) {
        Question {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(question, "question");
            Objects.requireNonNull(answer, "answer");
            Objects.requireNonNull(category, "category");
        }
    }
}
