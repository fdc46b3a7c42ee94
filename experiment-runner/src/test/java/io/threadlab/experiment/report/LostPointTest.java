package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.RunManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A point the runner could not measure (its load did not end) is named by a failed check, not left out silently. */
class LostPointTest {

    @TempDir
    Path dir;

    @Test
    void aLostOpenModelPointFailsItsCheckByName() throws IOException {
        Json.write(dir.resolve("results.json"), Map.of("windows",
                List.of(SeedsMapTest.window("reactive", "reactive", 200, 2813, 0.096, 1066))));
        Json.write(dir.resolve("manifest.json"), Map.of("format", 2, "completed", true, "status", "completed",
                "lab", Map.of("quarkus_version", "3.27.2", "runner_java_version", "25", "machine_cores", 2),
                "confinement", Map.of("method", "cgroup-v1", "limits_cpu", true, "variant_cpu_quota", 0.5),
                "plan", Map.of("mode", "map", "variants", List.of("reactive"), "closed_model_vus", List.of(3000),
                        "delays_ms", List.of(300)),
                "warnings", List.of("reactive-300ms-closed-3000-1: k6 used 1.30 CPU of the 1.50 left to it",
                        RunManifest.POINT_LOST + "reactive-300ms-open-1: the open model's k6 failed after its last"
                                + " step: k6 did not finish within 60 s")));
        String md = Files.readString(Report.write(dir).markdown());

        assertThat(md).contains("| Every planned point was measured | **FAILED** | 1 lost: reactive-300ms-open-1: the"
                + " open model's k6 failed after its last step: k6 did not finish within 60 s |");
    }
}
