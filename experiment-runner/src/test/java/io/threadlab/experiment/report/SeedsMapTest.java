package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seeds' map ({@code --delay-ms 300 --levels 3000 --worker-max 200,512,800}) is one point per JVM: no landscape,
 * but exactly the seeds' regime, so their table is shown. This one was written by a runner before calibration (format
 * 2): its points were never predicted, and the table says so rather than predict them after the fact.
 */
class SeedsMapTest {

    @TempDir
    Path dir;

    @Test
    void aMapOfTheSeedsRegimeAloneShowsTheirTable() throws IOException {
        List<Map<String, Object>> windows = new ArrayList<>();
        windows.add(window("imperative", "imperative-w200", 200, 666, 0.16, 4547));
        windows.add(window("imperative", "imperative-w512", 512, 1617, 0.14, 1855));
        windows.add(window("imperative", "imperative-w800", 800, 2530, 0.136, 1186));
        windows.add(window("reactive", "reactive", 200, 5755, 0.082, 521));
        windows.add(window("virtual-thread", "virtual-thread", 200, 4937, 0.096, 607));
        Json.write(dir.resolve("results.json"), Map.of("windows", windows));
        Json.write(dir.resolve("manifest.json"), Map.of("format", 2, "completed", true, "status", "completed",
                "lab", Map.of("quarkus_version", "3.27.2", "runner_java_version", "25", "machine_cores", 2),
                "confinement", Map.of("method", "cgroup-v1", "limits_cpu", true, "variant_cpu_quota", 0.5),
                "plan", Map.of("mode", "map", "variants", List.of("imperative", "reactive", "virtual-thread"),
                        "closed_model_vus", List.of(3000), "delays_ms", List.of(300))));
        String md = Files.readString(Report.write(dir).markdown());

        assertThat(md).contains("### The seeds' table at its own regime: 300 ms, 3,000 users",
                "| 512 platform threads | 1,564 | 1,707 | imperative-w512 | 1,617 | ours measured 1,617 req/s; not"
                        + " predicted (its JVM was not calibrated) |",
                "| WebFlux (reactive) | 5,281 | – | reactive | 5,755 | ours measured 5,755 req/s; not predicted");
        assertThat(md).doesNotContain("not measured here");
    }

    static Map<String, Object> window(String variant, String jvm, int workers, double rate, double cpuMs,
                                              double meanMs) {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("variant", variant);
        w.put("scenario", "closed-3000");
        w.put("repetition", 1);
        w.put("jvm", 1);
        w.put("jvm_label", jvm);
        w.put("users", 3000);
        w.put("delay_ms", 300);
        w.put("cpu_quota", 0.5);
        w.put("worker_max", workers);
        w.put("pool_size", 3000);
        w.put("requests_per_second", rate);
        w.put("cpu_ms_per_request", cpuMs);
        w.put("cpu_seconds", rate * cpuMs / 1000 * 6);
        w.put("window_seconds", 6.0);
        w.put("mean_ms", meanMs);
        w.put("delay_served_mean_ms", 300.5);
        return w;
    }
}
