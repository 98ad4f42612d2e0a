package dev.mnemo.eval;

import static dev.mnemo.eval.ScenarioUser.requireText;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One synthetic user who works in two or more projects whose facts conflict: project A uses pnpm
 * and Java 17, project B npm and Java 21. Each project's facts are stated in a session recorded in
 * that project; every probe is asked in one project, and an answer that holds another project's
 * value of the fact asked about is <em>contaminated</em>. As for {@link ScenarioUser}, the sessions
 * and questions are made from these facts by fixed templates (docs/eval.md).
 *
 * @param id a stable id, also the name of the scenario's folder in a run directory; unique among
 *     the set's users and cross-project scenarios
 * @param shared a preference the user states in every project: it holds in all of them, so each
 *     project's answer must recall it (what a scoped memory must not lose)
 * @param projects the projects, each with a value for every subject the others have
 */
public record CrossProjectScenario(String id, ScenarioUser.Preference shared, List<Project> projects) {

    /**
     * Checks the components and copies the collections.
     *
     * @param id a stable id, also the name of the scenario's folder in a run directory; unique among the set's
     *     users and cross-project scenarios
     * @param shared a preference the user states in every project: it holds in all of them, so each project's
     *     answer must recall it (what a scoped memory must not lose)
     * @param projects the projects, each with a value for every subject the others have
     * @throws NullPointerException when a required component is null
     * @throws IllegalArgumentException when a component is invalid, as the message says
     */
    public CrossProjectScenario {
        requireText(id, "id");
        Objects.requireNonNull(shared, "shared");
        projects = List.copyOf(Objects.requireNonNull(projects, "projects"));
        if (!id.matches("[a-z0-9][a-z0-9-]{0,63}")) {
            throw new IllegalArgumentException("cross-project scenario id must be 1-64 lower-case letters, digits or"
                    + " '-', was '" + id + "'");
        }
        if (projects.size() < 2) {
            throw new IllegalArgumentException("cross-project scenario '" + id + "' needs at least two projects, has "
                    + projects.size());
        }
        requireDistinct(id, projects);
        requireConflictingFacts(id, projects);
    }

    /**
     * One project of the user.
     *
     * @param key the project key its sessions are recorded and probed in ({@code SessionContext.inProject})
     * @param name how the user calls it; the answering model is told it is working in it
     * @param facts what holds in this project only
     */
    public record Project(String key, String name, List<Fact> facts) {
        /**
         * Checks the components and copies the collections.
         *
         * @param key the project key its sessions are recorded and probed in ({@code SessionContext.inProject})
         * @param name how the user calls it; the answering model is told it is working in it
         * @param facts what holds in this project only
         * @throws NullPointerException when a required component is null
         * @throws IllegalArgumentException when a component is invalid, as the message says
         */
        public Project {
            requireText(key, "projects.key");
            requireText(name, "projects.name");
            facts = List.copyOf(Objects.requireNonNull(facts, "projects.facts"));
            if (facts.isEmpty()) {
                throw new IllegalArgumentException("project '" + name + "' lists no facts");
            }
        }

        /**
         * This project's value of {@code subject}.
         *
         * @param subject a subject every project of the scenario has, e.g. package manager
         * @return this project's value of it
         * @throws IllegalArgumentException when this project has no fact of that subject
         */
        public String value(String subject) {
            return facts.stream().filter(f -> f.subject().equals(subject)).map(Fact::value).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("project '" + name + "' has no " + subject));
        }
    }

    /**
     * A fact of one project: its {@code subject} (package manager) is {@code value} (pnpm).
     *
     * @param subject what the fact is about, e.g. package manager
     * @param value its value in this project, e.g. pnpm
     */
    public record Fact(String subject, String value) {
        /**
         * Checks the components.
         *
         * @param subject what the fact is about, e.g. package manager
         * @param value its value in this project, e.g. pnpm
         * @throws NullPointerException when a required component is null
         * @throws IllegalArgumentException when a component is invalid (a blank text)
         */
        public Fact {
            requireText(subject, "facts.subject");
            requireText(value, "facts.value");
        }
    }

    /**
     * The subjects every project has a value for, in the first project's order.
     *
     * @return the subjects, never empty
     */
    public List<String> subjects() {
        return projects.get(0).facts().stream().map(Fact::subject).toList();
    }

    private static void requireDistinct(String id, List<Project> projects) {
        Set<String> keys = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (Project project : projects) {
            if (!keys.add(project.key().strip())) {
                throw new IllegalArgumentException("project key '" + project.key() + "' appears twice in cross-project"
                        + " scenario '" + id + "'");
            }
            if (!names.add(project.name())) {
                throw new IllegalArgumentException("project name '" + project.name() + "' appears twice in"
                        + " cross-project scenario '" + id + "'");
            }
        }
    }

    /**
     * Every project has a value for the same subjects, and no value of a subject can be read in
     * another project's value of it (as {@link Grader} reads: {@code npm} is not in {@code pnpm}),
     * so an answer's contamination is never ambiguous.
     */
    private static void requireConflictingFacts(String id, List<Project> projects) {
        Set<String> subjects = new HashSet<>();
        for (Fact fact : projects.get(0).facts()) {
            if (!subjects.add(fact.subject())) {
                throw new IllegalArgumentException("subject '" + fact.subject() + "' appears twice in project '"
                        + projects.get(0).name() + "'");
            }
        }
        for (Project project : projects) {
            Set<String> own = new HashSet<>();
            project.facts().forEach(f -> own.add(f.subject()));
            if (!own.equals(subjects) || project.facts().size() != subjects.size()) {
                throw new IllegalArgumentException("the projects of cross-project scenario '" + id + "' must state the"
                        + " same subjects once each: '" + project.name() + "' has " + own + ", '"
                        + projects.get(0).name() + "' " + subjects);
            }
        }
        for (String subject : subjects) {
            for (Project a : projects) {
                for (Project b : projects) {
                    if (a != b && Grader.contains(a.value(subject), b.value(subject))) {
                        throw new IllegalArgumentException("in cross-project scenario '" + id + "', the " + subject
                                + " of '" + b.name() + "' (" + b.value(subject) + ") reads as part of '" + a.name()
                                + "''s (" + a.value(subject) + "): the values must conflict");
                    }
                }
            }
        }
    }
}
