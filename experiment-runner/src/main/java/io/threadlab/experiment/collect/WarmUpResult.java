package io.threadlab.experiment.collect;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The warm-up of one JVM (or its time to peak). {@code secondsToPeak} counts from the JVM's start to the beginning
 * of the first finished window at the highest level; {@code metricsScrapesAnswered}, how many of its scrapes of the
 * variant's /q/metrics came back whole (the boost makes sixty, see WarmUpPolicy).
 * <p>
 * What the JVM said of itself before and after the boost is a record of its own, {@link Ergonomics}, written in
 * results.json as it always was, among the warm-up's own fields ({@code @JsonUnwrapped}: Jackson writes its fields in
 * place, and reads them back into it).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WarmUpResult(String jvm, String variant, int start, String strategy, double quota, double boostCpus,
                           boolean finished, double seconds, double boostSeconds, double startedAfterSeconds,
                           Double secondsToPeak, List<Level> levels, List<CompilerSample> samples,
                           @JsonUnwrapped Ergonomics ergonomics, int metricsScrapesAnswered) {

    public WarmUpResult {
        levels = levels == null ? List.of() : List.copyOf(levels);
        samples = samples == null ? List.of() : List.copyOf(samples);
    }

    /**
     * How one level went: how long it was held, and what the last judged window showed; {@code boostedAgain}: its
     * compile queue filled at the quota, was drained boosted once more, and the level was held anew ({@code seconds}
     * the second holding's), written only where it happened, so that results.json stays as it was otherwise.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Level(int users, double seconds, boolean finished, String reason, double compilerShare,
                        double trend, double meanRate,
                        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean boostedAgain) {

        /** A level held once (every run before the second boost, whose results have no such field). */
        public Level(int users, double seconds, boolean finished, String reason, double compilerShare, double trend,
                     double meanRate) {
            this(users, seconds, finished, reason, compilerShare, trend, meanRate, false);
        }

        /** The same level, held anew after a second boost. */
        public Level again() {
            return new Level(users, seconds, finished, reason, compilerShare, trend, meanRate, true);
        }
    }

    /**
     * What the JVM reported of its size before the boost and after it (availableProcessors, event loops, worker
     * maximum, ...), what it reported differently after (must be empty), and its threads by pool, before and after.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Ergonomics(Map<String, Object> runtimeBefore, Map<String, Object> runtimeAfter,
                             List<String> ergonomicsChanged, Map<String, Integer> threadsBefore,
                             Map<String, Integer> threadsAfter) {

        public Ergonomics {
            runtimeBefore = runtimeBefore == null ? Map.of() : runtimeBefore;
            runtimeAfter = runtimeAfter == null ? Map.of() : runtimeAfter;
            ergonomicsChanged = ergonomicsChanged == null ? List.of() : List.copyOf(ergonomicsChanged);
            threadsBefore = threadsBefore == null ? Map.of() : threadsBefore;
            threadsAfter = threadsAfter == null ? Map.of() : threadsAfter;
        }
    }

    /** What the JVM said about its size before the boost: availableProcessors, event loops, worker maximum, ... */
    public Object before(String key) {
        return runtimeBefore().get(key);
    }

    public Map<String, Object> runtimeBefore() {
        return ergonomics.runtimeBefore();
    }

    public Map<String, Object> runtimeAfter() {
        return ergonomics.runtimeAfter();
    }

    public List<String> ergonomicsChanged() {
        return ergonomics.ergonomicsChanged();
    }

    /**
     * What the JIT compiler's threads got of the CPU while the quota was raised: the mean over the boost's samples of
     * the CPU they used and of the time they spent runnable with no CPU to run on, in ms a second; empty where the
     * JVM was not boosted. Raised quota, the JVM is rarely throttled, so the wait is for a CPU its own threads (or
     * other processes) held, not for its quota.
     */
    @JsonIgnore
    public Optional<CompilerTimes> compilerInBoost() {
        List<CompilerSample> boost = samples.stream().filter(s -> s.cpus() > quota).toList();
        if (boost.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CompilerTimes(
                boost.stream().mapToDouble(CompilerSample::compilerCpuMsPerSecond).average().orElseThrow(),
                boost.stream().mapToDouble(CompilerSample::compilerWaitMsPerSecond).average().orElseThrow()));
    }

    /** The compiler threads' CPU and their wait for a CPU, in ms a second. */
    public record CompilerTimes(double ranMsPerSecond, double waitedMsPerSecond) {

        /** Milliseconds waited for each millisecond run; NaN where they did not run. */
        public double waitedPerRan() {
            return ranMsPerSecond > 0 ? waitedMsPerSecond / ranMsPerSecond : Double.NaN;
        }
    }
}
