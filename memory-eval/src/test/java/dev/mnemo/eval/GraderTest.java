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
}
