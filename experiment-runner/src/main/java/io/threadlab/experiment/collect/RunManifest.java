package io.threadlab.experiment.collect;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;
import java.util.Map;

/**
 * manifest.json: everything needed to judge or repeat a run. Written by {@link Manifest} as the run goes, read back
 * by the same types. {@code format} 3 is this runner's (results.json's windows in groups); a directory of format 2
 * (flat windows) or without a format (format 1) was written by an earlier runner and is read through
 * {@link LegacyFormat}. Its fields are grouped here by what they tell ({@link Progress}, {@link Conditions},
 * {@link AsRun}) and written flat, in this order, as the file has always had them.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunManifest(Integer format, @JsonUnwrapped Progress progress, @JsonUnwrapped Conditions conditions,
                          @JsonUnwrapped AsRun asRun) {

    /** How the run went: whether it completed, its status, when it started and finished, why it failed, warnings. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Progress(boolean completed, String status, String startedAt, String finishedAt, String failure,
                           List<String> warnings) {

        public Progress {
            warnings = warnings == null ? List.of() : List.copyOf(warnings);
        }
    }

    /**
     * What the run was started with: versions and machine, confinement, the JVMs' flags, the settings file, the knobs
     * and the plan.
     *
     * @param knobs the exact settings every variant was started with (Quarkus property → value), for humans and for
     *              {@code --extend} to compare; what the report needs of them is typed in {@link #plan}
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Conditions(Lab lab, Confinement confinement, List<String> jvmFlags,
                             Map<String, String> settingsFile, Map<String, Object> knobs, JfrSettings jfrSettings,
                             PlanFacts plan) {

        public Conditions {
            jvmFlags = jvmFlags == null ? List.of() : List.copyOf(jvmFlags);
            settingsFile = settingsFile == null ? Map.of() : settingsFile;
            knobs = knobs == null ? Map.of() : knobs;
        }
    }

    /**
     * What happened as it ran: the steps, the containers, precision on demand, the extensions, the database, the time
     * spent outside the steps and where everything ran.
     *
     * @param placement where the services, the database and k6 ran, and the measured round trip between k6 and the
     *                  services (absent in runs from before it was recorded: everything on one machine)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AsRun(List<StepAsRun> scheduleAsRun, List<Map<String, Object>> containers,
                        PrecisionOutcome precision, List<Extension> extensions, Map<String, Object> database,
                        Map<String, Double> timeSpent, Map<String, Object> placement) {

        public AsRun {
            scheduleAsRun = scheduleAsRun == null ? List.of() : List.copyOf(scheduleAsRun);
            extensions = extensions == null ? List.of() : List.copyOf(extensions);
            timeSpent = timeSpent == null ? Map.of() : timeSpent;
        }
    }

    /** How a warning that a point was lost begins: the report's checks list these. */
    public static final String POINT_LOST = "point not measured: ";

    public static final int FORMAT = 3;

    /**
     * How precision on demand went: the goal, the JVM starts planned and run, why it stopped, and each headline
     * ratio as it stood then.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PrecisionOutcome(String goal, int jvmStartsPlanned, int jvmStartsRun, String stoppedBecause,
                                   List<String> ratios) {
    }

    /** A later session that added JVM starts to this run ({@code ./experiment run --extend}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Extension(String startedAt, String finishedAt, String gitSha, int fromJvmStart, int toJvmStart,
                            String stoppedBecause) {
    }

    /** Versions and machine. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Lab(String gitSha, boolean gitDirty, String quarkusVersion, String javaHome,
                      String runnerJavaVersion, String k6Version, String kernel, String cpuModel, int machineCores,
                      long machineMemoryMb) {
    }

    /**
     * How the variants were confined: the engine and method, the quota (the run's own), the warm-up's boost, the delay
     * service's quota ("none": unconfined), on which CPUs the load generator and the delay service ran ("all":
     * anywhere), and every quota a JVM of the run ran at, the run's own first (a map's several {@code --cpus}; null in
     * a manifest written before the runner said so).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Confinement(String engine, String method, boolean limitsCpu, double variantCpuQuota,
                              double warmUpCpuQuota, String delayServiceCpuQuota, String verifiedBy,
                              String loadCpus, String variantCpus,
                              @JsonInclude(JsonInclude.Include.NON_NULL) List<Double> variantCpuQuotas) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record JfrSettings(String recordedWindows, String everyJvm) {
    }

    /**
     * One step as it ran: what, when (seconds from the first step), for how long, and how it ended when it did not
     * end as planned (null: done).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record StepAsRun(String kind, String what, double startedAtSeconds, double seconds, String outcome) {
    }

    // what the readers ask of a run, by name, wherever its group is
    public boolean completed() {
        return progress.completed();
    }

    public String status() {
        return progress.status();
    }

    public String startedAt() {
        return progress.startedAt();
    }

    public String finishedAt() {
        return progress.finishedAt();
    }

    public String failure() {
        return progress.failure();
    }

    public List<String> warnings() {
        return progress.warnings();
    }

    public Lab lab() {
        return conditions.lab();
    }

    public Confinement confinement() {
        return conditions.confinement();
    }

    public List<String> jvmFlags() {
        return conditions.jvmFlags();
    }

    public Map<String, String> settingsFile() {
        return conditions.settingsFile();
    }

    public Map<String, Object> knobs() {
        return conditions.knobs();
    }

    public JfrSettings jfrSettings() {
        return conditions.jfrSettings();
    }

    public PlanFacts plan() {
        return conditions.plan();
    }

    public List<StepAsRun> scheduleAsRun() {
        return asRun.scheduleAsRun();
    }

    public List<Map<String, Object>> containers() {
        return asRun.containers();
    }

    public PrecisionOutcome precision() {
        return asRun.precision();
    }

    public List<Extension> extensions() {
        return asRun.extensions();
    }

    public Map<String, Object> database() {
        return asRun.database();
    }

    public Map<String, Double> timeSpent() {
        return asRun.timeSpent();
    }

    public Map<String, Object> placement() {
        return asRun.placement();
    }

    /**
     * k6's environment as the run set it ({@code GOGC}, {@code GOMEMLIMIT}: its collector), from the load's placement;
     * empty for a run from before the knob, whose k6 ran at Go's defaults.
     */
    public Map<?, ?> k6Environment() {
        Object load = placement() == null ? null : placement().get("load");
        return load instanceof Map<?, ?> l && l.get("environment") instanceof Map<?, ?> e ? e : Map.of();
    }

    public boolean hasWarning(String fragment) {
        return warnings().stream().anyMatch(w -> w.contains(fragment));
    }

    /** The points the run went on without, each as "window id: why". */
    public List<String> lostPoints() {
        return warnings().stream().filter(w -> w.startsWith(POINT_LOST)).map(w -> w.substring(POINT_LOST.length()))
                .toList();
    }

}
