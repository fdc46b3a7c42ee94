package io.threadlab.experiment.collect;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes manifest.json ({@link RunManifest}): at the start with {@code completed: false}, again whenever the run
 * learns something, and a last time with how it ended. Every write is whole (a crash never leaves half a file).
 */
public final class Manifest {

    private final Path file;
    private String startedAt = Instant.now().toString();
    private final List<String> warnings = new ArrayList<>();
    private final List<RunManifest.StepAsRun> asRun = new ArrayList<>();
    private RunManifest.Lab lab;
    private RunManifest.Confinement confinement;
    private List<String> jvmFlags = List.of();
    private Map<String, String> settingsFile = Map.of();
    private Map<String, Object> knobs = Map.of();
    private RunManifest.JfrSettings jfrSettings;
    private PlanFacts plan;
    private List<Map<String, Object>> containers;
    private RunManifest.PrecisionOutcome precision;
    private Map<String, Object> database;
    private Map<String, Object> placement;
    /** Seconds of what is not a step: preparing (builds, k6, the delay service, the database), tearing down. */
    private final Map<String, Double> timeSpent = new java.util.LinkedHashMap<>();
    private final List<RunManifest.Extension> extensions = new ArrayList<>();
    private String status = "running";
    private String failure;
    private String finishedAt;
    private boolean finished;

    public Manifest(Path dir) {
        this.file = dir.resolve("manifest.json");
        write();
    }

    /**
     * The manifest of an earlier run, to be extended ({@code --extend}): everything it said stays; the extension is
     * added to {@code extensions} when it finishes.
     */
    public static Manifest extending(Path dir, RunManifest earlier) {
        Manifest m = new Manifest(dir, earlier);
        m.write();
        return m;
    }

    private Manifest(Path dir, RunManifest earlier) {
        this.file = dir.resolve("manifest.json");
        this.startedAt = earlier.startedAt();
        this.warnings.addAll(earlier.warnings());
        this.asRun.addAll(earlier.scheduleAsRun());
        this.lab = earlier.lab();
        this.confinement = earlier.confinement();
        this.jvmFlags = earlier.jvmFlags();
        this.settingsFile = earlier.settingsFile();
        this.knobs = earlier.knobs();
        this.jfrSettings = earlier.jfrSettings();
        this.plan = earlier.plan();
        this.containers = earlier.containers();
        this.precision = earlier.precision();
        this.placement = earlier.placement();
        this.extensions.addAll(earlier.extensions());
        this.status = "extending";
    }

    /** An extension ends: what it added, and why it stopped. */
    public synchronized void extended(RunManifest.Extension extension) {
        extensions.add(extension);
        write();
    }

    public synchronized void describe(RunManifest.Lab lab, RunManifest.Confinement confinement, List<String> jvmFlags,
                                      Map<String, String> settingsFile, Map<String, Object> knobs,
                                      RunManifest.JfrSettings jfrSettings, PlanFacts plan) {
        this.lab = lab;
        this.confinement = confinement;
        this.jvmFlags = List.copyOf(jvmFlags);
        this.settingsFile = settingsFile;
        this.knobs = knobs;
        this.jfrSettings = jfrSettings;
        this.plan = plan;
        write();
    }

    public synchronized void warn(String warning) {
        warnings.add(warning);
        write();
    }

    public synchronized void stepDone(RunManifest.StepAsRun step) {
        asRun.add(step);
        write();
    }

    /** What each container really got (image, user, cgroup, quota read back), beside the quota asked for. */
    public synchronized void containers(List<Map<String, Object>> facts) {
        this.containers = facts;
        write();
    }

    /** How long a part of the run that is not a step took (added to what an earlier part of that name took). */
    public synchronized void timeSpent(String part, double seconds) {
        timeSpent.merge(part, Math.round(seconds * 10) / 10.0, Double::sum);
        write();
    }

    /** The lab's PostgreSQL as it reported itself once ready: version, settings in force, rows, quota. */
    public synchronized void database(Map<String, Object> facts) {
        this.database = facts;
        write();
    }

    /** Where the services, the database and k6 ran, and the round trip measured between them. */
    public synchronized void placement(Map<String, Object> placement) {
        this.placement = placement;
        write();
    }

    public synchronized void precision(RunManifest.PrecisionOutcome outcome) {
        this.precision = outcome;
        write();
    }

    /** Final state, once: completed, interrupted or failed (with why). Later calls are ignored. */
    public synchronized void finish(String status, String failure) {
        if (finished) {
            return;
        }
        finished = true;
        this.status = status;
        this.failure = failure;
        this.finishedAt = Instant.now().toString();
        write();
    }

    public synchronized boolean isFinished() {
        return finished;
    }

    public synchronized RunManifest snapshot() {
        return new RunManifest(RunManifest.FORMAT,
                new RunManifest.Progress(finished && "completed".equals(status), status, startedAt, finishedAt, failure,
                        warnings),
                new RunManifest.Conditions(lab, confinement, jvmFlags, settingsFile, knobs, jfrSettings, plan),
                new RunManifest.AsRun(asRun, containers, precision, extensions, database,
                        new java.util.LinkedHashMap<>(timeSpent), placement));
    }

    private void write() {
        Json.write(file, snapshot());
    }
}
