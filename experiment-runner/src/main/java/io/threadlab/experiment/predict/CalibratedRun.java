package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.WorkKind;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A results directory's calibrations, as {@code ./experiment predict} asks them about a point no window measured.
 * Each variant is predicted from its first calibrated JVM start on the run's own knobs, as the runner predicted every
 * later JVM start of it ({@link Predictions}): a run calibrates only that one, and where an earlier runner calibrated
 * more, the first is the one its later starts would have been predicted from.
 */
public final class CalibratedRun {

    /** Where the manifest keeps the client's read timeout (the key {@code Knobs.serviceSettings} writes). */
    static final String READ_TIMEOUT = "quarkus.rest-client.delay.read-timeout";

    private final Path dir;
    private final Map<String, Calibrated> variants;
    /** How far each variant's JVM starts differed in the run: what another run's start may differ by. */
    private final Map<String, JvmStarts> starts;
    private final Integer readTimeoutMs;
    private final double sharedCores;
    /** The processor it ran on, as its manifest names it (null: not recorded). */
    private final String processor;

    private CalibratedRun(Path dir, Map<String, Calibrated> variants, Map<String, JvmStarts> starts,
                          Integer readTimeoutMs, double sharedCores, String processor) {
        this.dir = dir;
        this.variants = variants;
        this.starts = starts;
        this.readTimeoutMs = readTimeoutMs;
        this.sharedCores = sharedCores;
        this.processor = processor;
    }

    /** The calibrations of {@code dir} on the delay service; refused, saying why, where it cannot be read or has none. */
    public static CalibratedRun read(Path dir) throws CannotPredict {
        return read(dir, Point.NONE);
    }

    /**
     * The calibrations of {@code dir} of one kind of work ({@link WorkKind#of}: the delay service, the database, the
     * database through Hibernate; each has a model of its own); refused, saying why, where it cannot be read or has
     * none.
     */
    public static CalibratedRun read(Path dir, Point kind) throws CannotPredict {
        if (!Files.isDirectory(dir)) {
            throw new CannotPredict("no such results directory: " + dir);
        }
        RunRecord record;
        try {
            record = RunRecord.read(dir); // names the file and field at fault, and reads the earlier formats
        } catch (IOException e) {
            throw new CannotPredict(e.getMessage());
        }
        List<WindowResult> calibrations = record.results().windows().stream().filter(WindowResult::calibration)
                .filter(w -> w.users() != null && w.delayMs() != null).toList();
        List<WindowResult> calibration = calibrations.stream().filter(w -> WorkKind.of(w.at()).equals(kind)).toList();
        if (calibration.isEmpty() && !calibrations.isEmpty()) {
            Point other = WorkKind.of(calibrations.getFirst().at());
            throw new CannotPredict(dir + " has no calibration on " + WorkKind.words(kind) + "; it has one on "
                    + calibrations.stream().map(w -> WorkKind.words(WorkKind.of(w.at()))).distinct().toList()
                    + ": ask with --downstream " + (other.has(Axis.DOWNSTREAM) ? other.get(Axis.DOWNSTREAM)
                    : Downstream.HTTP).label() + (other.has(Axis.DB_ACCESS) ? " --db-access "
                    + other.get(Axis.DB_ACCESS).label() : ""));
        }
        if (calibration.isEmpty()) {
            Integer format = record.manifest().format();
            throw new CannotPredict(dir + " has no calibration windows (results format " + (format == null ? 1
                    : format) + "): runs written before the runner calibrated each JVM (results formats 1 and 2)"
                    + " have none, nor have runs made with --no-calibration, nor --mistakes runs without"
                    + " --calibration-levels. Measure a run that has"
                    + " them: ./experiment run (it calibrates each variant's first JVM start at "
                    + Defaults.CALIBRATION_LEVELS + " users), then ./experiment predict --from results/<that run>");
        }
        Map<String, List<WindowResult>> byJvm = new LinkedHashMap<>();
        calibration.forEach(w -> byJvm.computeIfAbsent(w.jvmId(), k -> new ArrayList<>())
                .add(w));
        Set<String> order = new LinkedHashSet<>(record.manifest().plan() == null ? List.of()
                : record.manifest().plan().variants());
        calibration.forEach(w -> order.add(w.variant()));
        Map<String, Calibrated> variants = new LinkedHashMap<>();
        for (String variant : order) {
            // the JVM on the run's own knobs (its label is the variant's) before a map's other setups, then the
            // first start
            byJvm.values().stream().filter(rows -> rows.getFirst().variant().equals(variant))
                    .min(Comparator.comparing((List<WindowResult> rows) -> !rows.getFirst().jvmName().equals(variant))
                            .thenComparingInt(rows -> rows.getFirst().jvm()))
                    .ifPresent(rows -> variants.put(variant, Calibrated.of(variant,
                            rows.getFirst().jvmId(), rows)));
        }
        Map<String, JvmStarts> starts = new LinkedHashMap<>();
        List<WindowResult> measured = record.results().windows().stream()
                .filter(w -> WorkKind.of(w.at()).equals(kind)).toList();
        variants.keySet().forEach(v -> starts.put(v, JvmStarts.of(measured, v)));
        Object timeout = record.manifest().knobs().get(READ_TIMEOUT);
        return new CalibratedRun(dir, variants, starts, timeout instanceof Number n ? n.intValue() : null,
                sharedCores(record), record.manifest().lab() == null ? null : record.manifest().lab().cpuModel());
    }

    /** The processor the calibration ran on, as its manifest names it; null where it was not recorded. */
    public String processor() {
        return processor;
    }

    /**
     * The CPUs k6 shared with the services in the run: its machine's, where it ran beside them on every CPU (the
     * default); NaN where it ran elsewhere or on a CPU of its own, and the load generator is then no ceiling.
     */
    private static double sharedCores(RunRecord record) {
        Object same = record.manifest().placement() == null ? null : record.manifest().placement().get("same_machine");
        boolean shared = record.manifest().plan() == null || "shared".equals(record.manifest().plan().loadCpus());
        return record.manifest().lab() != null && record.manifest().lab().machineCores() > 0 && shared
                && !Boolean.FALSE.equals(same)
                ? record.manifest().lab().machineCores() : Double.NaN;
    }

    public Path dir() {
        return dir;
    }

    /** The calibrated variants, in the run's order. */
    public List<String> variants() {
        return List.copyOf(variants.keySet());
    }

    /**
     * The CPU curves of the models and the control (not the mistakes), by variant, where their calibration fits a
     * model: what the evidence of the model's constants reads.
     */
    Map<String, CpuCurve> timedCurves() {
        Map<String, CpuCurve> curves = new LinkedHashMap<>();
        variants.forEach((variant, calibrated) -> {
            boolean timed = Variant.find(variant).map(v -> v.role() == Variant.Role.MODEL
                    || v.role() == Variant.Role.CONTROL).orElse(false);
            if (timed) {
                calibrated.fit().model().ifPresent(m -> curves.put(variant, m.curve()));
            }
        });
        return curves;
    }

    public Calibrated calibrated(String variant) throws CannotPredict {
        Calibrated c = variants.get(variant);
        if (c == null) {
            throw new CannotPredict(variant + " has no calibration windows in " + dir + "; calibrated: "
                    + String.join(", ", variants.keySet()));
        }
        return c;
    }

    /**
     * The forecast of {@code variant} at a point given whole (its JVM and window axes, as another run's window has
     * them), from its calibration here, for this JVM start; empty where the variant has none, or its calibration fits
     * no model.
     */
    public Optional<Forecast> forecast(String variant, Point at) {
        return forecast(variant, at, null);
    }

    /** The same on a machine whose fixed piece of work took {@code machineUs} CPU-µs (null: the calibration's). */
    public Optional<Forecast> forecast(String variant, Point at, Double machineUs) {
        Calibrated c = variants.get(variant);
        return c == null ? Optional.empty() : c.fit().model().map(m -> m.onMachine(sharedCores)
                .forMachine(machineUs).predict(at));
    }

    /**
     * The same for a window of another run: another JVM start, so the CPU ceiling's error takes in how far this run's
     * own starts differed ({@link JvmStarts}).
     */
    public Optional<Forecast> forAnotherRun(String variant, Point at, Double machineUs) {
        return forecast(variant, at, machineUs).map(starts(variant)::forAnotherStart);
    }

    /** How far {@code variant}'s JVM starts differed in this run (none measured: {@link JvmStarts#points()} 0). */
    JvmStarts starts(String variant) {
        return starts.getOrDefault(variant, JvmStarts.NONE);
    }

    /** The forecasts asked for, and each calibrated variant left out because its calibration fits no model. */
    public record Answer(List<VariantForecast> forecasts, List<String> leftOut) {
    }

    /**
     * Each of {@code asked} at the point {@code whatIf} gives (null or empty: every calibrated variant). A variant
     * asked for by name must have a model; by default, those without one are left out, saying why. None left:
     * refused.
     */
    public Answer predict(List<String> asked, WhatIf whatIf) throws CannotPredict {
        boolean named = asked != null && !asked.isEmpty();
        List<VariantForecast> forecasts = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        for (String variant : named ? asked : variants()) {
            Calibrated c = calibrated(variant);
            if (c.fit().model().isEmpty()) {
                String why = variant + ": its calibration in " + dir + " fits no model (" + c.fit().missing() + ")";
                if (named) {
                    throw new CannotPredict(why);
                }
                leftOut.add(why);
                continue;
            }
            forecasts.add(predict(c, whatIf));
        }
        if (forecasts.isEmpty()) {
            throw new CannotPredict("no calibration in " + dir + " fits a model: " + String.join("; ", leftOut));
        }
        return new Answer(forecasts, leftOut);
    }

    private VariantForecast predict(Calibrated c, WhatIf whatIf) throws CannotPredict {
        Point at = whatIf.at(c);
        int delay = at.get(Axis.DELAY_MS);
        if (readTimeoutMs != null && delay >= readTimeoutMs) {
            // the model knows requests that are answered; past the timeout every call fails, which it does not describe
            throw new CannotPredict(String.format(Locale.ROOT, "--delay-ms %d is not below the client's read timeout"
                    + " in %s (%d ms): every call would time out, and the model predicts answered requests only",
                    delay, dir, readTimeoutMs));
        }
        CapacityModel model = c.fit().model().orElseThrow().onMachine(sharedCores);
        Forecast forecast = model.predict(at);
        List<String> notes = new ArrayList<>(forecast.notes());
        notes.addAll(whatIf.notes(c, at));
        return new VariantForecast(c, at, forecast, notes);
    }
}
