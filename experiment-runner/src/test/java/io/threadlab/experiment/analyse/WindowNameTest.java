package io.threadlab.experiment.analyse;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The runner's window names, as they are now (delay, optional setup) and as runners up to d6f4758 wrote them. */
class WindowNameTest {

    @Test
    void theDelayAndTheUsersAreReadFromTodaysNames() {
        assertThat(WindowName.parse("imperative-300ms-closed-3000-jfr-1"))
                .contains(new WindowName("imperative", 300, 3000, true, 1));
        assertThat(WindowName.parse("imperative-rest-10ms-closed-50-2"))
                .contains(new WindowName("imperative-rest", 10, 50, false, 2));
        assertThat(WindowName.parse("reactive-10ms-open-jfr-3")).contains(new WindowName("reactive", 10, null, true, 3));
    }

    @Test
    void aSetupStaysInTheLabelAndIsNotTakenForTheDelay() {
        assertThat(WindowName.parse("imperative-w512-10ms-closed-500-1"))
                .contains(new WindowName("imperative-w512", 10, 500, false, 1));
        assertThat(WindowName.parse("imperative-pool3000-300ms-closed-3000-jfr-2"))
                .contains(new WindowName("imperative-pool3000", 300, 3000, true, 2));
        assertThat(WindowName.parse("virtual-thread-cpu0.25-w512-pool3000-10ms-closed-100-1"))
                .contains(new WindowName("virtual-thread-cpu0.25-w512-pool3000", 10, 100, false, 1));
    }

    @Test
    void olderNamesHaveNoDelay() {
        assertThat(WindowName.parse("imperative-closed-20-jfr-1")).contains(new WindowName("imperative", null, 20, true, 1));
        assertThat(WindowName.parse("blocking-event-loop-closed-50-jfr-1"))
                .contains(new WindowName("blocking-event-loop", null, 50, true, 1));
        assertThat(WindowName.parse("reactive-open-1")).contains(new WindowName("reactive", null, null, false, 1));
    }

    @Test
    void namesTheRunnerDidNotMakeAreNotParsed() {
        assertThat(WindowName.parse("mine")).isEmpty();
        assertThat(WindowName.parse("imperative-rest-closed-10-reactive")).isEmpty();
        assertThat(WindowName.parse("imperative-10ms-closed-1")).isEmpty(); // no repetition
    }
}
