package io.threadlab.experiment.findings;

import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.report.HeadlineRatios;
import io.threadlab.experiment.report.RunFacts;
import io.threadlab.experiment.report.Stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The headline's spread as pictures: each headline ratio per published default run with its interval (grey where it
 * includes 1), and each JVM start's throughput, where the spread between runs comes from.
 */
final class HeadlinePictures {

    private static final String NOISE = "#aaaaaa";

    private HeadlinePictures() {
    }

    static String ratios(List<PublishedRun> runs) {
        List<DotPlot.Band> bands = new ArrayList<>();
        for (HeadlineSection.Key key : HeadlineSection.keys(runs)) {
            List<DotPlot.Line> lines = new ArrayList<>();
            for (PublishedRun run : runs) {
                HeadlineRatios.Ratio r = HeadlineSection.byKey(run.facts()).get(key);
                lines.add(new DotPlot.Line(run.name(), r == null ? List.of() : List.of(new DotPlot.Dot(
                        r.ratio().ratio(), r.ratio().low(), r.ratio().high(),
                        r.decided() ? colour(key.variant()) : NOISE))));
            }
            bands.add(new DotPlot.Band(key.title() + ", " + key.where(), lines));
        }
        return new DotPlot("The headline in every published default run: throughput over the worker-thread model's",
                "ratio, log scale; whisker: " + Cite.percent(Stats.CONFIDENCE) + " interval over JVM starts (grey: it"
                        + " includes 1)", true, 1).svg(bands);
    }

    static String jvmStarts(List<PublishedRun> runs) {
        Map<String, List<DotPlot.Line>> bands = new java.util.LinkedHashMap<>();
        for (PublishedRun run : runs) {
            for (RunFacts.CellFact c : run.facts().cells()) {
                bands.computeIfAbsent(c.variant() + ", " + c.at().describe(), k -> new ArrayList<>())
                        .add(new DotPlot.Line(run.name(), c.jvmMeans().stream().map(m -> new DotPlot.Dot(m,
                                Double.NaN, Double.NaN, colour(c.variant()))).toList()));
            }
        }
        List<DotPlot.Band> ordered = new ArrayList<>();
        bands.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> ordered.add(new DotPlot.Band(e.getKey(), e.getValue())));
        return new DotPlot("Each JVM start's throughput in every published default run", "req/s (mean of the JVM"
                + " start's windows)", false, Double.NaN).svg(ordered);
    }

    /** The variant's colour; grey for one this runner does not know. */
    private static String colour(String variant) {
        return Variant.find(variant).map(Variant::colour).orElse("#7f7f7f");
    }
}
