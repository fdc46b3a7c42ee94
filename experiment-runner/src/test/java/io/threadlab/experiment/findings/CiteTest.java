package io.threadlab.experiment.findings;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A share set beside a target reads on the side of the target it is on. */
class CiteTest {

    @Test
    void aShareJustShortOfItsTargetIsNeverRoundedUpToIt() {
        assertThat(Cite.percent(395.0 / 440, 0.90)).isEqualTo("89.7 %");
        assertThat(Cite.percent(0.89999, 0.90)).as("cut, not rounded, to a tenth").isEqualTo("89.9 %");
        assertThat(Cite.percent(0.946, 0.95)).isEqualTo("94.6 %");
    }

    @Test
    void aShareShortOfAllIsNeverRoundedUpToAll() {
        assertThat(Cite.percent(263.0 / 264, 0.95)).isEqualTo("99.6 %");
        assertThat(Cite.percent(1.0, 0.95)).isEqualTo("100 %");
        assertThat(Cite.percent(0.994, 0.95)).as("rounds to 99").isEqualTo("99 %");
    }

    @Test
    void otherSharesReadInWholePercents() {
        assertThat(Cite.percent(169.0 / 199, 0.90)).as("well short").isEqualTo("85 %");
        assertThat(Cite.percent(0.90, 0.90)).as("at the target").isEqualTo("90 %");
        assertThat(Cite.percent(0.9049, 0.90)).as("above, rounded down to it").isEqualTo("90 %");
        assertThat(Cite.percent(228.0 / 244, 0.90)).isEqualTo("93 %");
    }
}
