package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.Json;
import org.junit.jupiter.api.BeforeAll;
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
 * A map of two delays (10 and 300 ms) by two numbers of users (100 and 3,000), as the format-2 runner writes it: every
 * window with its delay and users, two repetitions on one JVM. Each variant repeats its rate at a point, except the
 * imperative one, whose second repetition is 1.1 times its first. So a ratio against it is r / sqrt(1.1) = 0.953463 r,
 * its logs differ by ln 1.1: sd 0.067394, se 0.047655, t(1) = 12.706, half-width 0.605510, so the ratio times
 * 0.545821 .. 1.832100.
 */
class SeveralDelaysTest {

    private static final List<String> VARIANTS = List.of("imperative", "reactive", "virtual-thread");
    /** Throughput per variant at 10 ms / 100, 10 ms / 3,000, 300 ms / 100 and 300 ms / 3,000. */
    private static final Map<String, double[]> RATES = Map.of(
            "imperative", new double[] {4000, 4100, 320, 2500},
            "reactive", new double[] {9000, 9900, 330, 9000},
            "virtual-thread", new double[] {7000, 8200, 330, 9450});

    @TempDir
    static Path dir;

    static String md;

    @BeforeAll
    static void writeTheMapAndItsReport() throws IOException {
        List<Map<String, Object>> windows = new ArrayList<>();
        for (String variant : VARIANTS) {
            int point = 0;
            for (int delay : List.of(10, 300)) {
                for (int users : List.of(100, 3000)) {
                    for (int rep = 1; rep <= 2; rep++) {
                        Map<String, Object> w = new LinkedHashMap<>();
                        w.put("variant", variant);
                        w.put("scenario", "closed-" + users);
                        w.put("repetition", rep);
                        w.put("jvm", 1);
                        w.put("users", users);
                        w.put("delay_ms", delay);
                        w.put("requests_per_second", RATES.get(variant)[point]
                                * (rep == 2 && variant.equals("imperative") ? 1.1 : 1));
                        w.put("cpu_ms_per_request", 0.2);
                        w.put("window_seconds", 10.0);
                        w.put("delay_served_mean_ms", delay + 0.6 + (users == 3000 ? 1 : 0));
                        windows.add(w);
                    }
                    point++;
                }
            }
        }
        Json.write(dir.resolve("results.json"), Map.of("windows", windows));
        Json.write(dir.resolve("manifest.json"), Map.of("format", 2, "completed", true, "status", "completed",
                "lab", Map.of("quarkus_version", "3.27.2", "runner_java_version", "25", "machine_cores", 2),
                "confinement", Map.of("method", "cgroup-v2", "limits_cpu", true, "variant_cpu_quota", 0.5),
                "plan", Map.of("mode", "map", "variants", VARIANTS, "closed_model_vus", List.of(100, 3000),
                        "delays_ms", List.of(10, 300))));
        md = Files.readString(Report.write(dir).markdown());
    }

    @Test
    void theTablesArePerDelayAndUsers() {
        // imperative at 10 ms and 100 users: 4,000 and 4,400, a median of 4,200; virtual-thread at 300 ms and 3,000
        // users against it: 9,450 / 2,500 x 0.953463 = 3.6041 (1.9672 .. 6.6031)
        assertThat(md).contains("| delay (ms) | users | variant | req/s | ",
                "| 300 | 3000 | reactive | 9,000 | ", "| 10 | 100 | imperative | 4,200 [",
                "| delay (ms) | users | variant | RSS (MB) | ",
                "| delay (ms) | users | variant | throughput | p99 | CPU per request |",
                "| 300 | 3000 | virtual-thread | 3.60× (95 % CI 1.97–6.60) |");
        // 9,000 / 2,500 x 0.953463 = 3.4325
        assertThat(md).contains("**At 300 ms, 3,000 users: reactive 3.43× (95 % CI 1.87–6.29) the imperative"
                        + " throughput",
                "![throughput-300ms-3000](charts/throughput-300ms-3000.svg)");
        assertThat(dir.resolve("charts/latency-10ms-100.svg")).isNotEmptyFile();
    }

    @Test
    void whatNamesTheDelayUsesTheDelaysMeasured() {
        assertThat(md).contains("the delay service (asked for 10 and 300 ms)",
                "| Delay service had headroom | passed | asked for 10 ms, served 11.6 ms on average in the worst"
                        + " window; asked for 300 ms, served 301.6 ms on average in the worst window;",
                "reactive@300ms/3000 0.0 %");
    }

    @Test
    void eachClaimIsComparedAtItsRegime() {
        assertThat(md).contains(
                // the Quarkus team's claim names 10 ms and no users: the most users measured at 10 ms
                // 9,900 / 4,100 x 0.953463 = 2.3023 (1.2566 .. 4.2180)
                "reactive / imperative throughput at 10 ms, 3,000 users: 2.30× (95 % CI 1.26–4.22) (claim 1.30×)",
                // 7,000 / 4,000 x 0.953463 = 1.6686 (0.9107 .. 3.0570)
                "virtual-thread / imperative throughput at 10 ms, 100 users: 1.67× (95 % CI 0.91–3.06), within noise"
                        + " (claim 1.72×)",
                "virtual-thread / imperative throughput at 10 ms, 500 users: not measured at this regime (run"
                        + " ./experiment map --delay-ms 10 --levels 500)",
                // two equal repetitions each: 9,450 / 9,000 exactly
                "virtual-thread / reactive throughput at 300 ms, 3,000 users: 1.05×");
    }
}
