package io.threadlab.experiment.collect;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Calibration;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Schedule;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WarmUpPolicy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The plan as the manifest records it: what was to be measured and how. {@code roles} gives each variant's role
 * (MODEL, CONTROL, MISTAKE, REFERENCE); {@code mistakes} each mistake's reference; {@code schedule} every step
 * before the run started, with its estimated seconds; {@code loadCpus} where k6 and the delay service ran during the
 * measured windows (shared, separate or compare; each window records its own); {@code fanOut} the calls per request
 * and their modes, the services' {@code lab.fanout.max-calls} and what the plan flagged (null: one call, as before);
 * {@code openModelShares} the map's open-model steps as shares of the closed peak at each delay (none in a run, whose
 * steps are {@code openModelRates});
 * {@code calibration} the users, delay and window each JVM is calibrated at, and how many times a window whose compiler
 * was busy is measured at most (null: none, or a run from before it was recorded).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record PlanFacts(String mode, List<String> variants, List<Integer> closedModelVus, List<Integer> delaysMs,
                        @JsonUnwrapped Sampling sampling, Map<String, Object> warmUp,
                        @JsonUnwrapped Shapes shapes, boolean jfrWindows, boolean timeToPeak,
                        @JsonUnwrapped VariantRoles variantRoles, @JsonUnwrapped Conduct conduct, String loadCpus,
                        List<String> downstreams, Map<String, Object> fanOut, Map<String, Object> calibration) {

    public PlanFacts {
        variants = variants == null ? List.of() : List.copyOf(variants);
        closedModelVus = closedModelVus == null ? List.of() : List.copyOf(closedModelVus);
        delaysMs = delaysMs == null ? List.of() : List.copyOf(delaysMs);
        warmUp = warmUp == null ? Map.of() : warmUp;
        loadCpus = loadCpus == null ? "shared" : loadCpus; // a run from before the choice existed shared the CPUs
        downstreams = downstreams == null ? List.of("http") : List.copyOf(downstreams); // before the database
    }

    /** How each point is sampled: the window, the settling before it, the JVM starts and the repetitions. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Sampling(int windowSeconds, int settleSeconds, int settleMaxSeconds, int jvmStarts,
                           int repetitionsPerJvm, int repetitions) {
    }

    /**
     * The load's shapes beside the closed model: the open model's steps (rates in a run, shares of the closed peak in
     * a map, each step's seconds, most users), and a burst's knobs (its sizes, senders, k6's patience, how often the
     * delay service was sampled; null: no burst).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Shapes(List<Integer> openModelRates, List<Double> openModelShares, int openModelStepSeconds,
                         int openModelMaxVus, @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> burst) {

        /** The open model's steps, and no burst. */
        public Shapes(List<Integer> openModelRates, List<Double> openModelShares, int openModelStepSeconds,
                      int openModelMaxVus) {
            this(openModelRates, openModelShares, openModelStepSeconds, openModelMaxVus, null);
        }

        public Shapes {
            openModelRates = openModelRates == null ? List.of() : List.copyOf(openModelRates);
            // none before 2026-11-27
            openModelShares = openModelShares == null ? List.of() : List.copyOf(openModelShares);
        }
    }

    /** What each variant is there for: the mistakes and what they spoil, a variant's own settings, every role. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record VariantRoles(Map<String, String> mistakes, Map<String, Object> variantOverrides,
                               Map<String, String> roles) {

        public VariantRoles {
            mistakes = mistakes == null ? Map.of() : mistakes;
            variantOverrides = variantOverrides == null ? Map.of() : variantOverrides;
            roles = roles == null ? Map.of() : roles;
        }
    }

    /** How the run goes: the JVMs side by side or in rounds, every step planned, and precision on demand's goal. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Conduct(String jvms, List<Map<String, Object>> schedule, Map<String, Object> precision) {

        public Conduct {
            schedule = schedule == null ? List.of() : List.copyOf(schedule);
        }
    }

    /** The manifest's form of a plan and its schedule. */
    public static PlanFacts of(ExperimentPlan plan, Schedule schedule, int openMaxVus) {
        Map<String, String> mistakes = new LinkedHashMap<>();
        Map<String, Object> overrides = new LinkedHashMap<>();
        Map<String, String> roles = new LinkedHashMap<>();
        for (Variant v : plan.variants()) {
            roles.put(v.label(), v.role().name());
            if (v.isMistake()) {
                mistakes.put(v.label(), v.spoils());
            }
            // a variant's own settings (the mistake's pool of 50, native access) beside the knobs every variant shares
            if (!v.properties().isEmpty() || !v.jvmOptions().isEmpty()) {
                overrides.put(v.label(), Map.of("properties", v.properties(), "jvm_options", v.jvmOptions()));
            }
        }
        Map<String, Object> warmUp = new LinkedHashMap<>();
        warmUp.put("boostCpus", plan.warmUp().boostCpus());
        warmUp.put("sampleSeconds", plan.warmUp().sampleSeconds());
        warmUp.put("preBoostSeconds", plan.warmUp().preBoostSeconds());
        warmUp.put("boostMaxSeconds", plan.warmUp().boostMaxSeconds());
        warmUp.put("levelMinSeconds", plan.warmUp().levelMinSeconds());
        warmUp.put("levelMaxSeconds", plan.warmUp().levelMaxSeconds());
        warmUp.put("compilerQuietShare", plan.warmUp().compilerQuietShare());
        warmUp.put("tolerance", plan.warmUp().tolerance());
        warmUp.put("boostedScrapesPerSample", WarmUpPolicy.BOOSTED_SCRAPES);
        warmUp.put("hotScrapes", WarmUpPolicy.HOT_SCRAPES);
        String jvms = plan.sideBySide()
                ? "every JVM started and warmed up before the first window; repetitions rotate the variant order and"
                + " alternate between JVM starts"
                : "JVM starts in rounds (one container per service at a time); repetitions rotate the variant order";
        return new PlanFacts(plan.mode().name().toLowerCase(), plan.variants().stream().map(Variant::label).toList(),
                plan.levels(), plan.delays(), new Sampling(plan.timing().windowSeconds(),
                        plan.timing().settleSeconds(), plan.timing().settleMaxSeconds(), plan.jvmStarts(),
                        plan.repetitionsPerJvm(), plan.repetitions()),
                warmUp, new Shapes(plan.open().rates(), plan.open().shares(), plan.open().stepSeconds(), openMaxVus,
                        burst(plan)),
                plan.jfrWindows(), plan.timeToPeak(), new VariantRoles(mistakes, overrides, roles),
                new Conduct(jvms, schedule.describe(), null), plan.placement().name().toLowerCase(Locale.ROOT),
                plan.grid().values(Axis.DOWNSTREAM).isEmpty()
                        ? List.of("http")
                        : plan.grid().values(Axis.DOWNSTREAM).stream().map(Downstream::label).toList(), fanOut(plan),
                calibration(plan));
    }

    private static Map<String, Object> burst(ExperimentPlan plan) {
        if (!plan.burst()) {
            return null;
        }
        Map<String, Object> burst = new LinkedHashMap<>();
        burst.put("requests", plan.bursts());
        burst.put("senders", io.threadlab.experiment.plan.Burst.SENDERS);
        burst.put("timeout_seconds", io.threadlab.experiment.plan.Burst.TIMEOUT_SECONDS);
        // from k6's start to the common start, each burst's: time for its connections to open first
        burst.put("lead_ms", plan.bursts().stream().map(n -> io.threadlab.experiment.plan.Burst.of(n).leadMillis())
                .toList());
        burst.put("warm_up_users", plan.topLevel());
        burst.put("delay_service_sampled_every_ms", io.threadlab.experiment.plan.Burst.SAMPLE_MILLIS);
        burst.put("script", "k6/burst.js");
        return burst;
    }

    private static Map<String, Object> calibration(ExperimentPlan plan) {
        if (!plan.calibration().any()) {
            return null;
        }
        Map<String, Object> calibration = new LinkedHashMap<>();
        calibration.put("users", plan.calibration().levels());
        calibration.put("delay_ms", plan.calibration().delayMs());
        // every stage: the first the CPU curve's, a longer delay what the calls in flight cost
        calibration.put("stages", plan.calibration().stages().stream().map(s -> Map.of("delay_ms", s.delayMs(),
                "users", s.levels())).toList());
        calibration.put("window_seconds", plan.calibration().windowSeconds());
        calibration.put("tries", plan.calibration().tries());
        calibration.put("measured_again_while_compiler_above_share_of_quota", WarmUpPolicy.COMPILER_QUIET_SHARE);
        calibration.put("measured_again_while_compiler_waited_above_share_of_window",
                Calibration.COMPILER_WAITING_SHARE);
        calibration.put("measured_again_while_slowest_second_below_share_of_fastest",
                Calibration.STALLED_SECOND_SHARE);
        return calibration;
    }

    private static Map<String, Object> fanOut(ExperimentPlan plan) {
        if (plan.grid().values(Axis.FAN_OUT).isEmpty()) {
            return null;
        }
        Map<String, Object> fanOut = new LinkedHashMap<>();
        fanOut.put("calls", plan.grid().values(Axis.FAN_OUT));
        fanOut.put("modes", plan.grid().values(Axis.FAN_OUT_MODE).stream().map(FanOutMode::label).toList());
        fanOut.put("lab.fanout.max-calls", ExperimentPlan.MAX_FAN_OUT);
        fanOut.put("flags", plan.fanOutFlags());
        return fanOut;
    }
}
