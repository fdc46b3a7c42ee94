package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Variant;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link MachineSpeed#ELASTICITY} is what the published runs measure: where one JVM setup of a model or the control
 * measured one point in several windows (its JVM starts, its repetitions), the windows' CPU per request against their
 * machine speeds, each as its log's distance from the point's own mean, fitted by least squares through the origin.
 * The constant must lie within two standard errors of that fit, so a publication that moves the evidence away from it
 * fails here until the constant follows.
 */
class MachineElasticityTest {

    private static final Path FINDINGS = Path.of("..", "findings").toAbsolutePath().normalize();
    /** Windows this short say too little of their CPU per request; a window with errors did other work. */
    private static final long LEAST_REQUESTS = 2_000;

    @Test
    void theConstantIsWhatThePublishedRunsMeasure() throws IOException {
        Map<String, List<double[]>> points = new HashMap<>();
        try (Stream<Path> runs = Files.list(FINDINGS)) {
            for (Path run : runs.filter(d -> Files.isRegularFile(d.resolve("results.json"))).sorted().toList()) {
                for (WindowResult w : RunRecord.read(run).results().windows()) {
                    if (measuresTheMachine(w)) {
                        points.computeIfAbsent(run.getFileName() + " " + w.variant() + " " + w.window().jvmLabel()
                                + " " + w.window().role() + " " + w.window().detailedRecording() + " " + w.at(),
                                k -> new ArrayList<>()).add(new double[] {Math.log(w.instruments().yardstickUs()),
                                Math.log(w.cpu().cpuMsPerRequest())});
                    }
                }
            }
        }
        double sxx = 0;
        double sxy = 0;
        List<double[]> deviations = new ArrayList<>();
        for (List<double[]> same : points.values()) {
            if (same.size() < 2) {
                continue;
            }
            double mx = same.stream().mapToDouble(p -> p[0]).average().orElseThrow();
            double my = same.stream().mapToDouble(p -> p[1]).average().orElseThrow();
            for (double[] p : same) {
                deviations.add(new double[] {p[0] - mx, p[1] - my});
                sxx += (p[0] - mx) * (p[0] - mx);
                sxy += (p[0] - mx) * (p[1] - my);
            }
        }
        assertThat(deviations).as("windows of one point at different machine speeds in findings/").hasSizeGreaterThan(50);
        double slope = sxy / sxx;
        double residual = Math.sqrt(deviations.stream().mapToDouble(d -> Math.pow(d[1] - slope * d[0], 2)).sum()
                / (deviations.size() - 1));
        double standardError = residual / Math.sqrt(sxx);
        assertThat(MachineSpeed.ELASTICITY).as("published runs: %.2f ± %.2f over %d windows", slope, standardError,
                deviations.size()).isBetween(slope - 2 * standardError, slope + 2 * standardError);
    }

    private static boolean measuresTheMachine(WindowResult w) {
        boolean model = Variant.find(w.variant()).map(v -> v.role() == Variant.Role.MODEL
                || v.role() == Variant.Role.CONTROL).orElse(false);
        return model && w.instruments().yardstickUs() != null && w.cpu().cpuMsPerRequest() > 0
                && w.load().errors() == 0 && w.load().requests() >= LEAST_REQUESTS;
    }
}
