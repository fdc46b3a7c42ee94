package io.threadlab.experiment.findings;

import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.report.landscape.LoadForecasts;
import io.threadlab.experiment.report.landscape.Outcome;

import java.util.List;

/**
 * The load generator in the forecast, judged on the held-out windows of every published run ({@link LoadForecasts}
 * counts them), as the findings page writes it: each number linked.
 *
 * @param ratio      the median of measured over forecast, "1.52×", linked
 * @param low        the ratio below which a tenth of the windows lie, linked
 * @param high       ... and above which a tenth lie
 * @param windows    the windows compared, linked
 * @param all        how many of them fell within the error their forecast stated
 * @param kept       the same, of the windows predicted from a calibration that kept k6's live latency histogram, as
 *                   every calibration has since 2026-12-04 (null where none was)
 * @param crowded    the windows k6 crowded, linked
 * @param foreseen   of those, the windows whose forecast had said k6 would crowd them, linked
 * @param warned     of those, the windows whose forecast had said k6 might (within its error), linked
 * @param calm       the windows k6 did not crowd, linked
 * @param alarms     of those, the windows whose forecast had said k6 would or might crowd them, linked
 * @param under      whether k6 costs more than the forecast says by more than the model's tolerance, in the median
 * @param unforeseen whether the forecast said would or might of fewer than half of the windows k6 crowded
 */
record LoadGenerator(String ratio, String low, String high, String windows, Coverage all, Coverage kept,
                     String crowded, String foreseen, String warned, String calm, String alarms, boolean under,
                     boolean unforeseen) {

    /**
     * Of the windows whose forecast stated an error of k6's CPU, those whose k6 a request fell within it.
     *
     * @param stated the windows whose forecast stated one, linked
     * @param inside of those, the windows within it, linked
     * @param share  that share, "87 %", linked ("–" where none was stated)
     * @param under  whether fewer fell within it than {@link Forecast#COVERAGE_TARGET}
     */
    record Coverage(String stated, String inside, String share, boolean under) {

        static Coverage of(LoadForecasts k6) {
            String file = PublishedRun.FROM_DOCS;
            return new Coverage(Cite.number(k6.stated(), 0, file), Cite.number(k6.inside(), 0, file),
                    k6.stated() == 0 ? "–" : Cite.link(Cite.percent((double) k6.inside() / k6.stated(),
                            Forecast.COVERAGE_TARGET), file), k6.inside() < Forecast.COVERAGE_TARGET * k6.stated());
        }
    }

    /**
     * From held-out outcomes whose k6 CPU was read and forecast, and those of them predicted from a calibration that
     * kept k6's histogram; null where none was read.
     */
    static LoadGenerator of(List<Outcome> outcomes, List<Outcome> keptHistogram) {
        LoadForecasts k6 = LoadForecasts.of(outcomes);
        if (k6 == null) {
            return null;
        }
        LoadForecasts kept = LoadForecasts.of(keptHistogram);
        String file = PublishedRun.FROM_DOCS;
        double median = k6.quantile(0.5);
        return new LoadGenerator(Cite.link(Cite.times(median), file), Cite.link(Cite.times(k6.quantile(0.1)), file),
                Cite.link(Cite.times(k6.quantile(0.9)), file), Cite.number(k6.windows(), 0, file), Coverage.of(k6),
                kept == null || kept.stated() == 0 ? null : Coverage.of(kept), Cite.number(k6.crowded(), 0, file),
                Cite.number(k6.foreseen(), 0, file), Cite.number(k6.warned(), 0, file),
                Cite.number(k6.calm(), 0, file), Cite.number(k6.alarms(), 0, file),
                median - 1 > Forecast.TOLERANCE, 2 * (k6.foreseen() + k6.warned()) < k6.crowded());
    }
}
