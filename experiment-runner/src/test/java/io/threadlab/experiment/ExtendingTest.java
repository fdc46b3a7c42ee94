package io.threadlab.experiment;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.RunManifest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExtendingTest {

    private static final RunManifest.Lab LAB = new RunManifest.Lab("abc", false, "3.27.2", "/jdk", "25.0.3",
            "k6 v1.8.1", "Linux", "CPU", 2, 24000);

    private static PlanFacts plan(List<Integer> users, int window) {
        return new PlanFacts("run", List.of("imperative", "reactive"), users, List.of(10), window, 3, 40, 2, 2, 4,
                Map.of("boostCpus", 2.0), List.of(250), 6, 1000, true, false, Map.of(), Map.of(), Map.of(), "",
                List.of(), null, "shared", null);
    }

    private static RunManifest earlier(PlanFacts plan) {
        return new RunManifest(2, true, "completed", "t", "t", null, List.of(), LAB, null, List.of(), Map.of(),
                Map.of("quarkus.thread-pool.max-threads", 200), null, plan, List.of(), null, null, List.of(), null);
    }

    @Test
    void theSamePlanKnobsAndVersionsMayBeExtended() {
        assertThatCode(() -> Extending.requireSame(earlier(plan(List.of(100, 500), 10)), LAB, plan(List.of(100, 500),
                10), Map.of("quarkus.thread-pool.max-threads", 200))).doesNotThrowAnyException();
    }

    @Test
    void everyDifferenceIsNamed() {
        RunManifest.Lab newer = new RunManifest.Lab("def", false, "3.27.3", "/jdk", "25.0.3", "k6 v1.8.1", "Linux",
                "CPU", 2, 24000);
        assertThatThrownBy(() -> Extending.requireSame(earlier(plan(List.of(100, 500), 10)), newer,
                plan(List.of(100), 6), Map.of("quarkus.thread-pool.max-threads", 512)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("users (--levels) was [100, 500], now [100]")
                .hasMessageContaining("--window was 10, now 6")
                .hasMessageContaining("knobs was {quarkus.thread-pool.max-threads=200}")
                .hasMessageContaining("Quarkus was 3.27.2, now 3.27.3");
    }
}
