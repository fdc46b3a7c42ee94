package io.threadlab.experiment.report;

import io.threadlab.experiment.analyse.AnalysisFile;
import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A results directory as the report reads it: the typed record of the run, its thread analysis when there is one, and
 * what the report asks of them: the variants, the closed-model points, and the windows of a cell.
 */
final class Run {

    private final RunRecord record;
    private final Optional<AnalysisFile> analysis;
    private final List<Integer> delays;
    private final List<Point> points;

    private Run(RunRecord record, Optional<AnalysisFile> analysis) {
        this.record = record;
        this.analysis = analysis;
        Set<Integer> delays = new LinkedHashSet<>(plan().delaysMs());
        // A calibration window's delay is no point of the run's (`--calibration-delay-ms`, 10 by default, beside 0).
        record.results().windows().stream().filter(w -> !w.calibration()).map(WindowResult::delayMs)
                .filter(d -> d != null).forEach(delays::add);
        this.delays = List.copyOf(delays);
        Set<Point> points = new LinkedHashSet<>();
        // a run with the database names the downstream of every point; one on the delay service alone, none
        List<String> downstreams = plan().downstreams();
        for (String downstream : downstreams) {
            Point on = downstreams.equals(List.of("http")) ? Point.NONE
                    : Point.of(Axis.DOWNSTREAM, Downstream.parse(downstream));
            for (int delay : this.delays) {
                plan().closedModelVus().forEach(users -> points.add(on.with(Axis.DELAY_MS, delay)
                        .with(Axis.USERS, users)));
            }
        }
        record.results().windows().stream().filter(w -> !w.calibration()).map(this::point).flatMap(Optional::stream)
                .forEach(points::add);
        this.points = points.stream().sorted(Comparator.comparingInt((Point p) -> this.delays.indexOf(
                p.get(Axis.DELAY_MS)))).toList();
    }

    /** Refuses a directory with a missing or malformed file, naming the file and the field (as RunRecord does). */
    static Run read(Path dir) throws IOException {
        RunRecord record = RunRecord.read(dir);
        return new Run(record, record.optional("analysis.json", AnalysisFile.class));
    }

    Path dir() {
        return record.dir();
    }

    RunManifest manifest() {
        return record.manifest();
    }

    PlanFacts plan() {
        return record.manifest().plan() != null ? record.manifest().plan() : new PlanFacts(null, null, null, null,
                new PlanFacts.Sampling(0, 0, 0, 0, 0, 0), null, new PlanFacts.Shapes(null, null, 0, 0), false, false,
                new PlanFacts.VariantRoles(null, null, null), new PlanFacts.Conduct(null, null, null), null, null, null,
                null);
    }

    RunManifest.Lab lab() {
        RunManifest.Lab lab = record.manifest().lab();
        return lab != null ? lab : new RunManifest.Lab("unknown", false, "unknown", null, "unknown", "unknown",
                "unknown", "unknown", 0, 0);
    }

    /** The Java version the run's JVMs ran, as the run recorded it ({@link RunRecord#jdk()}); empty: unknown. */
    Optional<String> jdk() {
        return record.jdk();
    }

    RunManifest.Confinement confinement() {
        RunManifest.Confinement c = record.manifest().confinement();
        return c != null ? c : new RunManifest.Confinement("unknown", "unknown", false, Double.NaN, Double.NaN,
                "unknown", null, null, null, null);
    }

    List<WindowResult> windows() {
        return record.results().windows();
    }

    List<WarmUpResult> warmUps() {
        return record.results().warmUps();
    }

    List<WarmUpResult> timesToPeak() {
        return record.results().timeToPeak();
    }

    Optional<AnalysisFile> analysis() {
        return analysis;
    }

    List<AnalysisFile.Recording> recordings() {
        return analysis.map(AnalysisFile::recordings).orElse(List.of());
    }

    /** Variants in the order the run names them. */
    List<String> variants() {
        Set<String> names = new LinkedHashSet<>(plan().variants());
        windows().forEach(w -> names.add(w.variant()));
        return List.copyOf(names);
    }

    /** The downstream delays measured, in plan order. */
    List<Integer> delays() {
        return delays;
    }

    /**
     * With several delays, the database among the downstreams or a fan-out, every table names the delay (and the
     * database, or the calls per request, where there were) beside the users; with one delay on the delay service and
     * one call it keeps the users alone.
     */
    boolean severalDelays() {
        return delays.size() > 1 || points.stream().anyMatch(p -> p.only(Axis.Scope.WINDOW).axes().stream()
                .anyMatch(a -> a != Axis.USERS && a != Axis.DELAY_MS));
    }

    /** Closed-model points, by delay (in plan order), then users (in plan order). */
    List<Point> points() {
        return points;
    }

    /** The heaviest point: the most users, at the longest delay among those. */
    Optional<Point> top() {
        return points.stream().max(Comparator.comparingInt((Point p) -> p.get(Axis.USERS))
                .thenComparingInt(p -> p.get(Axis.DELAY_MS)));
    }

    /** "50 users", or "300 ms, 3,000 users" when the run has several delays. */
    String label(Point p) {
        return shown(p).describe();
    }

    /** For a cell's name in a check: "50", or "300ms/3000". */
    String tag(Point p) {
        return shown(p).tag();
    }

    /** For a file name: "50", or "300ms-3000". */
    String slug(Point p) {
        return shown(p).tag().replace('/', '-');
    }

    /** The axes a table names: the delay only where the run has several. */
    private Point shown(Point p) {
        return severalDelays() ? p : p.without(Axis.DELAY_MS);
    }

    /** The delay a window was measured at. */
    int delay(WindowResult w) {
        return w.delayMs();
    }

    /** The closed-model point of a window (its window axes); empty for the open model. */
    Optional<Point> point(WindowResult w) {
        return w.users() == null ? Optional.empty() : Optional.of(w.cell());
    }

    /** The headline windows of a cell: no detailed recording. */
    List<WindowResult> plain(String variant, Point p) {
        return cell(variant, p, false);
    }

    /** The recorded twins of a cell. */
    List<WindowResult> recorded(String variant, Point p) {
        return cell(variant, p, true);
    }

    /**
     * A cell's windows, from the JVMs on the run's own knobs (the map's other setups are the landscape's); never a
     * calibration window.
     */
    private List<WindowResult> cell(String variant, Point p, boolean recorded) {
        return windows().stream().filter(w -> w.variant().equals(variant) && w.jvmName().equals(variant)
                && !w.calibration() && w.recorded() == recorded && point(w).filter(p::equals).isPresent()).toList();
    }

    /**
     * A window as the checks name it: "reactive closed-50 rep 2", by its JVM's label where a map ran one variant
     * on several setups ("imperative-w512 …"), with the delay when there are several.
     */
    String name(WindowResult w) {
        return w.jvmName() + (severalDelays() ? " " + delay(w) + " ms" : "") + " " + w.scenario() + " rep "
                + w.repetition();
    }

    /** Each mistake of the gallery, with the label of what it spoils. */
    Map<String, String> mistakes() {
        return plan().variantRoles().mistakes();
    }

    /** The manifest's role of a variant, else the one {@link Variant} gives it; empty for a label neither knows. */
    Optional<Variant.Role> role(String label) {
        String role = plan().variantRoles().roles().get(label);
        return role != null ? Optional.of(Variant.Role.valueOf(role)) : Variant.find(label).map(Variant::role);
    }

    /** The variants the run answers the question with: the design card's and the control, not the gallery's. */
    List<String> mainVariants() {
        return variants().stream().filter(v -> !mistakes().containsKey(v)).filter(v -> role(v)
                .map(r -> r == Variant.Role.MODEL || r == Variant.Role.CONTROL).orElse(true)).toList();
    }

    /** A JVM whose compiler had not finished when its warm-up ended. */
    boolean unfinished(String variant) {
        return warmUps().stream().anyMatch(w -> w.variant().equals(variant) && !w.finished());
    }
}
