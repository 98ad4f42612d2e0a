package dev.mnemo.eval;

import java.util.Objects;

/**
 * One synthetic user of the scenario set: the facts planted in their past sessions. The sessions
 * and probe questions are made from these facts by fixed templates (see docs/eval.md), so a
 * scenario file only lists facts.
 *
 * @param id a stable id, also the name of the user's folder in a run directory
 * @param project the project the user works on; it appears in sessions and questions
 * @param preference the stable preference the user states
 * @param procedure the procedure with its exact command
 * @param shield the failure the user hit and its fix
 * @param correction the fact the user corrects in a later session
 * @param polluted the fact only a polluted session holds
 * @param secret the credential the user pastes in a session
 */
public record ScenarioUser(String id, String project, Preference preference, Procedure procedure, Shield shield,
        Correction correction, Polluted polluted, Secret secret) {

    /**
     * Checks the components.
     *
     * @param id a stable id, also the name of the user's folder in a run directory
     * @param project the project the user works on; it appears in sessions and questions
     * @param preference the stable preference the user states
     * @param procedure the procedure with its exact command
     * @param shield the failure the user hit and its fix
     * @param correction the fact the user corrects in a later session
     * @param polluted the fact only a polluted session holds
     * @param secret the credential the user pastes in a session
     * @throws NullPointerException when a required component is null
     * @throws IllegalArgumentException when a component is invalid, as the message says
     */
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

    /**
     * A stable preference; a probe must recall {@code keyword}.
     *
     * @param subject what the preference is about
     * @param statement the user's words stating it
     * @param keyword the word an answer must hold to recall it
     */
    public record Preference(String subject, String statement, String keyword) {
        /**
         * Checks the components.
         *
         * @param subject what the preference is about
         * @param statement the user's words stating it
         * @param keyword the word an answer must hold to recall it
         * @throws NullPointerException when a required component is null
         * @throws IllegalArgumentException when a component is invalid (a blank text)
         */
        public Preference {
            requireText(subject, "preference.subject");
            requireText(statement, "preference.statement");
            requireText(keyword, "preference.keyword");
        }
    }

    /**
     * A procedure with an exact command; a probe must recall the command.
     *
     * @param task what the procedure does
     * @param command the exact command an answer must hold
     */
    public record Procedure(String task, String command) {
        /**
         * Checks the components.
         *
         * @param task what the procedure does
         * @param command the exact command an answer must hold
         * @throws NullPointerException when a required component is null
         * @throws IllegalArgumentException when a component is invalid (a blank text)
         */
        public Procedure {
            requireText(task, "procedure.task");
            requireText(command, "procedure.command");
        }
    }

    /**
     * A failure shield: a symptom and its fix; a probe must recall {@code keyword} of the fix.
     *
     * @param symptom what the user saw fail
     * @param fix what fixed it
     * @param keyword the word of the fix an answer must hold
     */
    public record Shield(String symptom, String fix, String keyword) {
        /**
         * Checks the components.
         *
         * @param symptom what the user saw fail
         * @param fix what fixed it
         * @param keyword the word of the fix an answer must hold
         * @throws NullPointerException when a required component is null
         * @throws IllegalArgumentException when a component is invalid (a blank text)
         */
        public Shield {
            requireText(symptom, "shield.symptom");
            requireText(fix, "shield.fix");
            requireText(keyword, "shield.keyword");
        }
    }

    /**
     * A fact corrected in a later session: the newer value must win, the older must not come back.
     *
     * @param subject what the fact is about
     * @param old the value stated first and later corrected; it must not come back
     * @param current the corrected value, which must win
     */
    public record Correction(String subject, String old, String current) {
        /**
         * Checks the components.
         *
         * @param subject what the fact is about
         * @param old the value stated first and later corrected; it must not come back
         * @param current the corrected value, which must win
         * @throws NullPointerException when a required component is null
         * @throws IllegalArgumentException when a component is invalid (a blank text)
         */
        public Correction {
            requireText(subject, "correction.subject");
            requireText(old, "correction.old");
            requireText(current, "correction.new");
        }
    }

    /**
     * A fact seen only in a session marked polluted: {@code keyword} must never come back.
     *
     * @param subject what the fact is about
     * @param fact the fact as the polluted session states it
     * @param keyword the word that must never come back
     */
    public record Polluted(String subject, String fact, String keyword) {
        /**
         * Checks the components.
         *
         * @param subject what the fact is about
         * @param fact the fact as the polluted session states it
         * @param keyword the word that must never come back
         * @throws NullPointerException when a required component is null
         * @throws IllegalArgumentException when a component is invalid (a blank text)
         */
        public Polluted {
            requireText(subject, "polluted.subject");
            requireText(fact, "polluted.fact");
            requireText(keyword, "polluted.keyword");
        }
    }

    /**
     * A credential pasted in a session: {@code value} must never appear in memory or an answer.
     *
     * @param service what the credential is for
     * @param value the credential itself
     */
    public record Secret(String service, String value) {
        /**
         * Checks the components.
         *
         * @param service what the credential is for
         * @param value the credential itself
         * @throws NullPointerException when a required component is null
         * @throws IllegalArgumentException when a component is invalid (a blank text)
         */
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
