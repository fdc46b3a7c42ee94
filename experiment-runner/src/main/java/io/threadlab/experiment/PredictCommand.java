package io.threadlab.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.report.HeldOutAgainst;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.predict.CalibratedRun;
import io.threadlab.experiment.predict.CannotPredict;
import io.threadlab.experiment.predict.ForecastJson;
import io.threadlab.experiment.predict.ForecastTable;
import io.threadlab.experiment.predict.WhatIf;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.FanOutMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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

    @Option(names = "--from", required = true, paramLabel = "RESULTS_DIR",
            description = "A results directory of ./experiment run or map with calibration windows (results/<run>).")
    Path from;

    @Option(names = "--users", paramLabel = "N", description = "Closed-model concurrent users (default: the most"
            + " the variant's calibration measured, of run's " + Defaults.CALIBRATION_LEVELS + ").")
    Integer users;

    @Option(names = "--delay-ms", paramLabel = "MS", description = "The downstream's delay (default: the"
            + " calibration's). Another delay keeps the CPU per request and the overhead measured above the"
            + " calibration's delay, and says so; one at or past the client's read timeout is refused.")
    Integer delayMs;

    @Option(names = "--cpus", paramLabel = "CPUS", description = "CPU quota (default: the calibration's); the CPU per"
            + " request is taken as the same at another.")
    Double cpus;

    @Option(names = "--worker-max", paramLabel = "N", description = "Worker-pool maximum, for the variants on workers"
            + " (default: the calibration's).")
    Integer workerMax;

    @Option(names = "--pool-size", paramLabel = "N", description = "The REST client's connection pool (default: the"
            + " calibration's).")
    Integer poolSize;

    @Option(names = "--downstream", paramLabel = "KIND", description = "Which calibration: the one whose requests"
            + " waited on http (the delay service) or db (the lab's PostgreSQL) (default: http).")
    String downstream = "http";

    @Option(names = "--db-pool-size", paramLabel = "N", description = "The database pool, with --downstream db"
            + " (default: the calibration's).")
    Integer dbPoolSize;

    @Option(names = "--db-cpus", paramLabel = "CPUS", description = "The database's CPU quota, with --downstream db"
            + " (default: the calibration's); its CPU per query is taken as the same at another.")
    Double dbCpus;

    @Option(names = "--fan-out", paramLabel = "N", description = "Calls to the delay service per request (default: 1,"
            + " the calibration's); the CPU per request taken as N × one call's.")
    Integer fanOut;

    @Option(names = "--fan-out-mode", paramLabel = "MODE", description = "parallel or sequential, with --fan-out"
            + " (default: parallel).")
    String fanOutMode;

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
        WhatIf whatIf = new WhatIf(users, delayMs, cpus, workerMax, poolSize, dbPoolSize, dbCpus, fanOut,
                fanOutMode == null ? null : FanOutMode.parse(fanOutMode));
        Downstream kind = Downstream.parse(downstream);
        try {
            CalibratedRun run = CalibratedRun.read(from, kind);
            CalibratedRun.Answer answer = run.predict(variants, whatIf);
            if (json) {
                answer.leftOut().forEach(l -> System.err.println("experiment predict: left out: " + l));
                System.out.println(Json.MAPPER.writeValueAsString(answer.forecasts().stream().map(ForecastJson::of)
                        .toList()));
            } else {
                System.out.print(ForecastTable.of(run.dir(), answer.forecasts(), answer.leftOut()));
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

    /** --against: another run's windows, each predicted from this calibration. */
    private int against() {
        if (users != null || delayMs != null || cpus != null || workerMax != null || poolSize != null
                || dbPoolSize != null || dbCpus != null || fanOut != null || fanOutMode != null || json) {
            throw new IllegalArgumentException("--against takes its points from the other run: --users, --delay-ms,"
                    + " --cpus, the pools, --fan-out and --json do not apply");
        }
        try {
            CalibratedRun run = CalibratedRun.read(from, Downstream.parse(downstream));
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
