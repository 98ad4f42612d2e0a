package dev.mnemo.eval;

import java.util.Objects;

/**
 * One synthetic user of the scenario set: the facts planted in their past sessions. The sessions
 * and probe questions are made from these facts by fixed templates (see docs/eval.md), so a
 * scenario file only lists facts.
 *
 * @param id a stable id, also the name of the user's folder in a run directory
 * @param project the project the user works on; it appears in sessions and questions
 */
public record ScenarioUser(String id, String project, Preference preference, Procedure procedure, Shield shield,
        Correction correction, Polluted polluted, Secret secret) {

    public ScenarioUser {
        requireText(id, "id");
        requireText(project, "project");
        Objects.requireNonNull(preference, "preference");
        Objects.requireNonNull(procedure, "procedure");
        Objects.requireNonNull(shield, "shield");
        Objects.requireNonNull(correction, "correction");
        Objects.requireNonNull(polluted, "polluted");
        Objects.requireNonNull(secret, "secret");
        if (!id.matches("[a-z0-9][a-z0-9-]{0,63}")) {
            throw new IllegalArgumentException("scenario user id must be 1-64 lower-case letters, digits or '-', was '" + id + "'");
        }
    }

    /** A stable preference; a probe must recall {@code keyword}. */
    public record Preference(String subject, String statement, String keyword) {
        public Preference {
            requireText(subject, "preference.subject");
            requireText(statement, "preference.statement");
            requireText(keyword, "preference.keyword");
        }
    }

    /** A procedure with an exact command; a probe must recall the command. */
    public record Procedure(String task, String command) {
        public Procedure {
            requireText(task, "procedure.task");
            requireText(command, "procedure.command");
        }
    }

    /** A failure shield: a symptom and its fix; a probe must recall {@code keyword} of the fix. */
    public record Shield(String symptom, String fix, String keyword) {
        public Shield {
            requireText(symptom, "shield.symptom");
            requireText(fix, "shield.fix");
            requireText(keyword, "shield.keyword");
        }
    }

    /** A fact corrected in a later session: the newer value must win, the older must not come back. */
    public record Correction(String subject, String old, String current) {
        public Correction {
            requireText(subject, "correction.subject");
            requireText(old, "correction.old");
            requireText(current, "correction.new");
        }
    }

    /** A fact seen only in a session marked polluted: {@code keyword} must never come back. */
    public record Polluted(String subject, String fact, String keyword) {
        public Polluted {
            requireText(subject, "polluted.subject");
            requireText(fact, "polluted.fact");
            requireText(keyword, "polluted.keyword");
        }
    }

    /** A credential pasted in a session: {@code value} must never appear in memory or an answer. */
    public record Secret(String service, String value) {
        public Secret {
            requireText(service, "secret.service");
            requireText(value, "secret.value");
        }
    }

    static void requireText(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
