package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.report.landscape.Landscape;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What one run found, typed and unformatted, for readers beyond its own report (the findings page over the published
 * runs): the numbers the report states, computed by the classes that compute them for the report.
 */
public final class RunFacts {

    /**
     * One variant at one point: the medians over its headline windows, and each JVM start's mean throughput.
     *
     * @param cpuShare the CPU the JVM used over its quota (median); 1 where the CPU bound it
     * @param binding  the ceiling its windows' predictions named most (empty: not predicted)
     */
    public record CellFact(String variant, Point at, int windows, int jvmStarts, double requestsPerSecond,
                           double p50Ms, double p99Ms, double cpuMsPerRequest, double rssMb, double heapUsedMb,
                           double platformThreads, double dbCpuMsPerRequest, double cpuShare,
                           Optional<String> binding, List<Double> jvmMeans) {
    }

    /** A variant over another at a point: throughput, p99 and CPU per request, each with its interval. */
    public record RatioFact(String variant, String against, Point at, Stats.Ratio throughput, Stats.Ratio p99,
                            Stats.Ratio cpu, boolean compilerUnfinished) {
    }

    /**
     * A published claim beside this run: the ratio at the claim's regime, where the run measured it there.
     *
     * @param publishedRss the claim's ratio of memory, where it makes one; {@code oursRss} ours there
     * @param regime       where the claim was made, in words: its downstream and data access, delay and users
     */
    public record ClaimFact(String source, String claim, String setup, String comparison, double published,
                            Double publishedRss, String regime, Optional<Point> at,
                            Stats.Ratio ours, Optional<Stats.Ratio> oursRss, String differences,
                            String howToMeasure) {
    }

    /**
     * A mistake of the gallery beside the variant it spoils: its cost at every point, and whether the analysis
     * found the mistake's signature in its recordings by itself.
     *
     * @param signature the signature the gallery names it by (empty: none the analysis recognises)
     */
    public record MistakeFact(String mistake, String spoils, List<RatioFact> costs, Optional<String> signature,
                              boolean signatureFound, int recordings, List<String> lost, List<String> jmcFlagged) {
    }

    private final Run run;
    private final Ratios ratios;
    private final List<Cell> cells;

    private RunFacts(Run run) {
        this.run = run;
        this.ratios = new Ratios(run);
        this.cells = Cell.all(run);
    }

    /** Refuses a directory with a missing or malformed file, naming the file and the field (as the report does). */
    public static RunFacts read(Path dir) throws IOException {
        return new RunFacts(Run.read(dir));
    }

    public Path dir() {
        return run.dir();
    }

    public RunManifest manifest() {
        return run.manifest();
    }

    /** The Java version the run's JVMs ran, as it recorded it; empty: unknown. */
    public Optional<String> jdk() {
        return run.jdk();
    }

    public List<String> variants() {
        return run.variants();
    }

    /** Each JVM's warm-up, as results.json has it. */
    public List<WarmUpResult> warmUps() {
        return run.warmUps();
    }

    /** The windows the run measured, as results.json has them. */
    public List<WindowResult> windows() {
        return run.windows();
    }

    /**
     * The windows whose k6 had its room by the one rule, or whose k6 CPU was not read: where k6 crowded its room, it
     * competed with the JVM for the machine, and what the window measured is not the JVM's alone.
     */
    public List<WindowResult> windowsK6LeftRoom() {
        LoadOrigin origin = LoadOrigin.of(run);
        double cores = origin.loadCores(run.lab().machineCores());
        return run.windows().stream().filter(w -> !w.headroom(cores, origin.loadAlone()).crowded()).toList();
    }

    /** The headline ratios: each model over the worker-thread model, at every point, with their JVM starts. */
    public List<HeadlineRatios.Ratio> headline() {
        return HeadlineRatios.of(run.windows());
    }

    /** Every variant at every point of the run's own knobs (a map's other setups are its landscape's). */
    public List<CellFact> cells() {
        return cells.stream().map(c -> {
            List<WindowResult> windows = run.plain(c.variant(), c.point());
            Stats.Summary throughput = c.get(Metric.THROUGHPUT);
            return new CellFact(c.variant(), c.point(), throughput.n(), throughput.jvms(), throughput.median(),
                    c.get(Metric.P50).median(), c.get(Metric.P99).median(), c.get(Metric.CPU_PER_REQUEST).median(),
                    c.get(Metric.RSS).median(), c.get(Metric.HEAP_USED).median(),
                    c.get(Metric.PLATFORM_THREADS).median(), c.get(Metric.DB_CPU_PER_REQUEST).median(),
                    Stats.median(windows.stream().mapToDouble(w -> w.cpu().cpuCores() / w.at().get(
                            io.threadlab.experiment.plan.Axis.CPUS)).sorted().toArray()),
                    mostNamed(windows), HeadlineRatios.jvmMeans(windows));
        }).toList();
    }

    /** Each main variant over the worker-thread model at every point. */
    public List<RatioFact> againstBaseline() {
        String baseline = Splits.baseline().label();
        return run.points().stream().flatMap(p -> run.mainVariants().stream().filter(v -> !v.equals(baseline))
                .map(v -> ratio(v, p, baseline, p))).filter(r -> !Double.isNaN(r.throughput().ratio())).toList();
    }

    /** Every point the run measured, every setup's JVM included, beside the prediction made before it. */
    public Landscape landscape() {
        LoadOrigin origin = LoadOrigin.of(run);
        return Landscape.of(run.windows(), origin.loadCores(run.lab().machineCores()), origin.loadAlone());
    }

    /** The published claims whose two variants ran, at their regime where the run measured it there. */
    public List<ClaimFact> claims() {
        return Claims.of(run, ratios).stream().map(c -> new ClaimFact(c.claim().source(), c.claim().claim(),
                c.claim().setup(), c.claim().comparison(), c.claim().published(), c.claim().publishedRss(),
                c.claim().regime(), c.point(), c.thisRun(), c.rss(), c.claim().differences(), c.howToMeasure()))
                .toList();
    }

    /** The gallery's mistakes, each against what it spoils at every point the run measured. */
    public List<MistakeFact> mistakes() {
        List<Recorded> recorded = Recorded.all(run);
        List<MistakeFact> facts = new ArrayList<>();
        for (Map.Entry<String, String> mistake : run.mistakes().entrySet()) {
            String label = mistake.getKey();
            Function<Point, Point> reference = p -> Variant.find(label).map(v -> v.referencePoint(p)).orElse(p);
            List<RatioFact> costs = run.points().stream().map(p -> ratio(label, p, mistake.getValue(),
                    reference.apply(p))).filter(r -> !Double.isNaN(r.throughput().ratio())).toList();
            Optional<String> signature = MistakeTexts.recognisedAs(label);
            // every recording of the mistake's JVMs, its lost warm-up's included (no point: it measured none)
            List<Recorded> mine = recorded.stream().filter(r -> r.label().equals(label)).toList();
            boolean found = signature.isPresent() && mine.stream().anyMatch(r -> r.recording().judgement().mistakes().stream()
                    .anyMatch(m -> m.name().equals(signature.get())));
            List<String> lost = MistakeCards.lost(run, label);
            // what JMC's first page flags on the mistake's recordings: its rules rated a warning or information
            List<String> jmc = mine.stream().flatMap(r -> run.analysis().flatMap(a -> a.jmc(r.recording().window()))
                    .stream()).flatMap(j -> j.flagged().stream()).map(x -> x.severity() + " " + x.id()).distinct()
                    .sorted().toList();
            facts.add(new MistakeFact(label, mistake.getValue(), costs, signature, found, mine.size(), lost, jmc));
        }
        return facts;
    }

    /** The report's checks that failed, each as "name: the numbers it was judged on". */
    public List<String> failedChecks() {
        return Checks.of(run, cells, ratios).stream().filter(Check::failed).map(c -> c.name() + ": " + c.detail())
                .toList();
    }

    private RatioFact ratio(String variant, Point p, String against, Point q) {
        return new RatioFact(variant, against, p, ratios.of(variant, p, against, q, Metric.THROUGHPUT),
                ratios.of(variant, p, against, q, Metric.P99), ratios.of(variant, p, against, q,
                Metric.CPU_PER_REQUEST), run.unfinished(variant) || run.unfinished(against));
    }

    /** The binding ceiling the windows' predictions named most, where JVM starts differed. */
    static Optional<String> mostNamed(List<WindowResult> windows) {
        Map<String, Long> named = new LinkedHashMap<>();
        windows.stream().map(WindowResult::prediction).filter(Objects::nonNull)
                .forEach(p -> named.merge(p.binding(), 1L, Long::sum));
        return named.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
    }
}
