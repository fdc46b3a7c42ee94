package io.threadlab.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.report.HeldOutAgainst;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.predict.BurstForecast;
import io.threadlab.experiment.predict.CalibratedRun;
import io.threadlab.experiment.predict.VariantForecast;
import io.threadlab.experiment.predict.CannotPredict;
import io.threadlab.experiment.predict.ForecastJson;
import io.threadlab.experiment.predict.ForecastTable;
import io.threadlab.experiment.predict.WhatIf;
import io.threadlab.experiment.plan.DbAccess;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.WorkKind;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code ./experiment predict}: the capacity model of each variant, fitted to a finished run's calibration windows,
 * asked about a point nobody measured. Reads the results directory only; measures nothing.
 *
 * <p>Exit codes: 0 answered; 2 a bad value of a flag (with the usage) or nothing to predict from (the directory
 * unreadable, no calibration, a variant not calibrated, a delay past the client's timeout; without the usage, which
 * would not help).
 */
@Command(name = "predict", mixinStandardHelpOptions = true, sortOptions = false,
        modelTransformer = PredictCommand.Axes.class,
        description = {"Predict each variant's throughput, p50 and RSS at a point of your choosing from the calibration"
                + " windows of a finished run, and name the ceiling that binds (CPU, workers, connections, users) with"
                + " every ceiling's value. Measures nothing; needs no running service.",
                "Each variant is predicted from its first calibrated JVM start (imperative-jvm1), as the runner"
                        + " predicts its later JVM starts. Every value not given is that calibration's own; users above"
                        + " the most it calibrated are predicted, marked extrapolated, with a wider error."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:predicted", "2:a bad value of a flag; or nothing to predict from: the directory unreadable,"
                + " no calibration windows (runs before calibration, results formats 1 and 2, have none, nor have"
                + " runs with --no-calibration, nor --mistakes runs without --calibration-levels), a variant not"
                + " calibrated, a delay at or past the client's read timeout"},
        footerHeading = "%nExamples:%n",
        footer = {"  ./experiment predict --from results/<run>",
                "  ./experiment predict --from results/<run> --users 3000 --delay-ms 300",
                "  ./experiment predict --from results/<run> --variants reactive --cpus 1 --json",
                "  ./experiment predict --from results/<default run> --against results/<another run>"})
public final class PredictCommand implements Callable<Integer> {

    /** The point's options, one per axis: each defaults to the calibration's own. */
    static final class Axes implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            AxisOptions.addTo(spec, AxisOptions.Command.PREDICT, Map.of(Axis.USERS, "the most the variant's"
                    + " calibration measured, of run's " + Defaults.CALIBRATION_LEVELS, Axis.DOWNSTREAM, "http: the"
                    + " calibration whose requests waited on the delay service; db asks the one that waited on the"
                    + " lab's PostgreSQL", Axis.DB_ACCESS, "jdbc: with --downstream db, the calibration of the plain"
                    + " client; orm asks the one through Hibernate"));
            return spec;
        }
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--from", required = true, paramLabel = "RESULTS_DIR",
            description = "A results directory of ./experiment run or map with calibration windows (results/<run>).")
    Path from;

    @Option(names = "--variants", split = ",", paramLabel = "NAME", description = "Variants to predict, in order"
            + " (default: every calibrated variant whose calibration fits a model).")
    List<String> variants;

    @Option(names = "--json", description = "Print one JSON array, an object per variant, instead of the table.")
    boolean json;

    @Option(names = "--against", paramLabel = "RESULTS_DIR", description = "Instead of one point: every closed-model"
            + " window of another run, each predicted from --from's calibration as if asked before it was measured,"
            + " with how the predictions fared (within the tolerance, inside their interval, the binding ceiling"
            + " named right). The point's flags do not apply.")
    Path against;

    @Override
    public Integer call() {
        if (against != null) {
            return against();
        }
        // a bad value: usage error, exit 2
        AxisOptions point = AxisOptions.given(spec, AxisOptions.Command.PREDICT);
        Integer requests = point.value(Axis.REQUESTS);
        if (requests != null && point.has(Axis.USERS)) {
            throw new IllegalArgumentException("--requests asks about a burst of that many requests at once, --users"
                    + " about the closed model's users: one or the other");
        }
        // a burst is predicted as the closed model at as many users as it has requests, drained at its ceiling
        WhatIf whatIf = new WhatIf(requests != null ? requests : point.value(Axis.USERS), point.value(Axis.DELAY_MS), point.value(Axis.CPUS),
                point.value(Axis.WORKER_MAX), point.value(Axis.POOL_SIZE), point.value(Axis.DB_POOL_SIZE),
                point.value(Axis.DB_CPUS), point.value(Axis.FAN_OUT), point.value(Axis.FAN_OUT_MODE));
        Point kind = kind(point);
        try {
            CalibratedRun run = CalibratedRun.read(from, kind);
            CalibratedRun.Answer answer = run.predict(variants, whatIf);
            if (requests != null) {
                System.out.print(burst(run, answer, requests));
                return 0;
            }
            if (json) {
                answer.leftOut().forEach(l -> System.err.println("experiment predict: left out: " + l));
                System.out.println(Json.MAPPER.writeValueAsString(answer.forecasts().stream().map(ForecastJson::of)
                        .toList()));
                anotherProcessor(run).ifPresent(n -> System.err.println("experiment predict: " + n));
            } else {
                System.out.print(ForecastTable.of(run.dir(), answer.forecasts(), answer.leftOut()));
                anotherProcessor(run).ifPresent(System.out::println);
            }
            return 0;
        } catch (CannotPredict e) {
            System.err.println("experiment predict: " + e.getMessage());
            return 2;
        } catch (JsonProcessingException e) { // our own records: not expected, but no usage error either
            System.err.println("experiment predict: cannot write JSON: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Where the calibration ran on another processor than this machine's: the forecasts are for its machine, and on
     * another processor a request costs another CPU (on this sandbox's AMD EPYC about 1.3 times its Intel Xeon's).
     */
    private static Optional<String> anotherProcessor(CalibratedRun run) {
        String here = MachineFacts.cpuModel();
        return run.processor() == null || here.isEmpty() || run.processor().equals(here) ? Optional.empty()
                : Optional.of("Calibrated on " + run.processor() + "; this machine is " + here + ": the"
                + " forecasts are for the calibration's machine,\nand on another processor a request costs another CPU"
                + " (docs/predict.md, \"Another processor\"). Calibrate here to forecast here.");
    }

    /**
     * --requests: each variant's time to the last answer of a burst, its binding ceiling and every ceiling's time
     * (as a JSON array with --json).
     */
    private String burst(CalibratedRun run, CalibratedRun.Answer answer, int requests) throws JsonProcessingException {
        List<java.util.Map<String, Object>> rows = new java.util.ArrayList<>();
        StringBuilder text = new StringBuilder(String.format(java.util.Locale.ROOT, "A burst of %,d requests at once,"
                + " predicted from the calibrations in %s: the requests over what the binding ceiling allows per"
                + " second%n%n", requests, run.dir()));
        for (VariantForecast asked : answer.forecasts()) {
            BurstForecast f = BurstForecast.of(asked, requests);
            java.util.Map<String, Object> row = new java.util.LinkedHashMap<>();
            row.put("variant", asked.variant());
            row.put("burst_requests", requests);
            row.put("delay_ms", asked.at().get(Axis.DELAY_MS));
            row.put("predicted_ms", f.predictedMs());
            row.put("binding", f.binding());
            row.put("expected_error", f.expectedError());
            row.put("ceilings_ms", f.ceilingsMs());
            rows.add(row);
            text.append(String.format(java.util.Locale.ROOT, "%-16s %s ±%.0f %% at %d ms%n", asked.variant(),
                    f.describe(), f.expectedError() * 100, asked.at().get(Axis.DELAY_MS)));
        }
        answer.leftOut().forEach(l -> text.append("left out: ").append(l).append(System.lineSeparator()));
        return json ? Json.MAPPER.writeValueAsString(rows) + System.lineSeparator() : text.toString();
    }

    /**
     * Which calibration: the delay service's unless --downstream names the database's (and --db-access how it was
     * read).
     */
    private static Point kind(AxisOptions point) {
        Downstream downstream = point.value(Axis.DOWNSTREAM);
        DbAccess access = point.value(Axis.DB_ACCESS);
        if (access == DbAccess.ORM && downstream != Downstream.DB) {
            throw new IllegalArgumentException("--db-access orm reads the database's page: add --downstream db");
        }
        return WorkKind.of(Point.of(Axis.DOWNSTREAM, downstream != null ? downstream : Downstream.HTTP)
                .with(Axis.DB_ACCESS, access));
    }

    /** --against: another run's windows, each predicted from this calibration. */
    private int against() {
        AxisOptions point = AxisOptions.given(spec, AxisOptions.Command.PREDICT);
        if (point.givenAxes().stream().anyMatch(a -> a != Axis.DOWNSTREAM && a != Axis.DB_ACCESS) || json) {
            throw new IllegalArgumentException("--against takes its points from the other run: --users, --delay-ms,"
                    + " --cpus, the pools, --fan-out and --json do not apply");
        }
        try {
            CalibratedRun run = CalibratedRun.read(from, kind(point));
            RunRecord other;
            try {
                other = RunRecord.read(against);
            } catch (IOException e) {
                throw new CannotPredict("--against: " + e.getMessage());
            }
            HeldOutAgainst held = HeldOutAgainst.of(run, other);
            if (held.outcomes().isEmpty()) {
                throw new CannotPredict(against + " has no closed-model window of a variant calibrated in " + from
                        + " (" + String.join(", ", run.variants()) + ")");
            }
            System.out.println("Every closed-model window of " + against + ", predicted from the calibrations in "
                    + from + "\n");
            System.out.print(held.describe());
            return 0;
        } catch (CannotPredict e) {
            System.err.println("experiment predict: " + e.getMessage());
            return 2;
        }
    }
}
