package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GraderTest {

    @Test
    void contains_ignoresCaseBackticksAndSpacing_butNotWordBoundaries() {
        assertThat(Grader.contains("Run `make  deploy-staging REGION=eu-west-1`.", "make deploy-staging region=eu-west-1"))
                .isTrue();
        assertThat(Grader.contains("the GPU is an l4", "t4")).isFalse();
        assertThat(Grader.contains("we use postgres 16", "postgres 1")).isFalse();
        assertThat(Grader.contains("node 18, then node 22", "node 22")).isTrue();
    }

    @Test
    void grade_inAProject_countsAnotherProjectsValueAsContamination_butNotAValueThatOnlyHoldsItsLetters() {
        CrossProjectScenario scenario = ScenarioSet.bundled().crossProject().get(0);
        Script.ProjectProbe storefront = Script.probes(scenario).stream()
                .filter(p -> p.project().name().equals("storefront") && p.expected().equals("pnpm")).findFirst()
                .orElseThrow();

        ProjectProbeResult own = Grader.grade(scenario.id(), storefront, ReadPath.SCOPED, "Use `pnpm install`.");
        ProjectProbeResult mixed = Grader.grade(scenario.id(), storefront, ReadPath.GLOBAL_ONLY,
                "pnpm, or npm in some of your notes.");
        ProjectProbeResult other = Grader.grade(scenario.id(), storefront, ReadPath.GLOBAL_ONLY, "Run npm ci.");

        assertThat(storefront.foreign()).containsExactly("npm");
        assertThat(own.recalled()).isTrue();
        assertThat(own.contaminated()).isFalse();
        assertThat(mixed.recalled()).isTrue();
        assertThat(mixed.contaminated()).isTrue();
        assertThat(mixed.foreignFacts()).containsExactly("npm");
        assertThat(other.recalled()).isFalse();
        assertThat(other.contaminated()).isTrue();
    }
}
