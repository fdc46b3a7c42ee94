package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.landscape.Outcome;
import io.threadlab.experiment.report.landscape.Quantiles;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the CPU bound a held-out window, the CPU a request cost there over the cost behind the forecast's CPU ceiling,
 * per variant: the JVM's CPU over its throughput, against the quota over that ceiling (the forecast made for the
 * window's machine speed). It tells the capacity model's errors apart: a cost read wrong from the calibration moves
 * this ratio; a throughput missed with the cost right (another JVM start's pace, the wrong ceiling named where two
 * were close) does not.
 *
 * @param work    what the runs measured, as the totals name it ("the delay service")
 * @param variant the variant
 * @param windows the held-out windows measured soundly whose JVM used at least {@link Outcome#CPU_BOUND_SHARE} of its
 *                quota, linked
 * @param median  measured over forecast, the median, "1.05×", linked
 * @param low     the ratio a tenth of the windows lie below, linked
 * @param high    ... and a tenth above
 */
record CostAgreement(String work, String variant, String windows, String median, String low, String high) {

    /** One row per variant with such windows, in the order the variants first appear. */
    static List<CostAgreement> of(String work, List<Outcome> outcomes) {
        Map<String, List<Double>> byVariant = new LinkedHashMap<>();
        outcomes.stream().filter(CostAgreement::cpuBound)
                .forEach(o -> byVariant.computeIfAbsent(o.variant(), v -> new ArrayList<>()).add(ratio(o)));
        String file = PublishedRun.FROM_DOCS;
        return byVariant.entrySet().stream().map(e -> {
            double[] sorted = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return new CostAgreement(work, e.getKey(), Cite.number(sorted.length, 0, file),
                    Cite.link(Cite.times(Quantiles.of(sorted, 0.5)), file),
                    Cite.link(Cite.times(Quantiles.of(sorted, 0.1)), file),
                    Cite.link(Cite.times(Quantiles.of(sorted, 0.9)), file));
        }).toList();
    }

    /** A held-out window measured soundly whose JVM used its quota, predicted with a CPU ceiling. */
    static boolean cpuBound(Outcome o) {
        return o.heldOut() && o.measuredSoundly() && o.readings().saturation() >= Outcome.CPU_BOUND_SHARE
                && cpuCeiling(o) > 0;
    }

    /**
     * The CPU a request cost over the forecast's: (saturation × quota ÷ throughput) ÷ (quota ÷ CPU ceiling), the quota
     * cancelling.
     */
    static double ratio(Outcome o) {
        return o.readings().saturation() * cpuCeiling(o) / o.measured();
    }

    private static double cpuCeiling(Outcome o) {
        return o.prediction().map(p -> p.ceilings() == null ? null : p.ceilings().get("cpu")).orElse(0.0);
    }
}
