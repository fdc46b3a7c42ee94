package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report says a JVM's requests cost less where more wait because its threads sleep less only where its windows
 * show it, and says it does not where they do not; a run whose sleeps were not counted gets no such section.
 */
class SleepsSectionTest {

    @TempDir
    Path dir;

    private String report(double... sleeps) throws IOException {
        int[] users = {30, 100, 200, 500, 700};
        double[] rps = {2566, 4057, 4519, 5196, 5820};
        double[] cpuMs = {0.188, 0.123, 0.110, 0.096, 0.086};
        List<WindowResult> windows = new java.util.ArrayList<>();
        for (int i = 0; i < users.length; i++) {
            Windows w = Windows.closed("virtual-thread", users[i], rps[i]).cpuMs(cpuMs[i]);
            if (users[i] != 100 && users[i] != 500) { // calibrated at three, the others held out: a landscape
                w = w.calibration();
            }
            windows.add(sleeps.length == 0 ? w.build() : w.sleeps(sleeps[i]).build());
        }
        Json.write(dir.resolve("results.json"), Map.of("windows", windows));
        Json.write(dir.resolve("manifest.json"), Map.of("format", 3, "completed", true, "status", "completed",
                "lab", Map.of("quarkus_version", "3.27.2", "runner_java_version", "25", "machine_cores", 2),
                "confinement", Map.of("method", "cgroup-v1", "limits_cpu", true, "variant_cpu_quota", 0.5),
                "plan", Map.of("mode", "map", "variants", List.of("virtual-thread"), "closed_model_vus",
                        List.of(30, 100, 200, 500, 700), "delays_ms", List.of(10))));
        return Files.readString(Report.write(dir).markdown());
    }

    @Test
    void sleepsThatFollowTheCostExplainItsFall() throws IOException {
        String md = report(4.46, 1.83, 1.36, 0.88, 0.56);
        assertThat(md).contains("### Why a request costs less where more wait")
                .contains("| virtual-thread-jvm1 | 5 | 0.56 (639 waiting): 0.086 | 4.46 (3 waiting): 0.188 | 26 | 0.074"
                        + " | 1.00 | virtual-thread-jvm1: its threads sleep less where more requests wait: ");
    }

    @Test
    void sleepsThatRunTheOtherWayExplainNothing() throws IOException {
        String md = report(0.56, 0.88, 1.36, 1.83, 4.46);
        assertThat(md).contains("### Why a request costs less where more wait")
                .contains("virtual-thread-jvm1: not explained by its sleeps: its cost did not rise with its sleeps")
                .doesNotContain("its threads sleep less where more requests wait");
    }

    @Test
    void uncountedSleepsMakeNoSection() throws IOException {
        assertThat(report()).doesNotContain("Why a request costs less where more wait");
    }
}
