package io.threadlab.experiment.collect;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;
import java.util.Map;

/**
 * The warm-up of one JVM (or its time to peak). {@code ergonomicsChanged} lists what the JVM reported differently
 * after the boost than before it (must be empty); {@code secondsToPeak} counts from the JVM's start to the beginning
 * of the first finished window at the highest level; {@code metricsScrapesAnswered}, how many of its scrapes of the
 * variant's /q/metrics came back whole (the boost makes sixty, see WarmUpPolicy).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WarmUpResult(String jvm, String variant, int start, String strategy, double quota, double boostCpus,
                           boolean finished, double seconds, double boostSeconds, double startedAfterSeconds,
                           Double secondsToPeak, List<Level> levels, List<CompilerSample> samples,
                           Map<String, Object> runtimeBefore, Map<String, Object> runtimeAfter,
                           List<String> ergonomicsChanged, Map<String, Integer> threadsBefore,
                           Map<String, Integer> threadsAfter, int metricsScrapesAnswered) {

    public WarmUpResult {
        levels = levels == null ? List.of() : List.copyOf(levels);
        samples = samples == null ? List.of() : List.copyOf(samples);
        runtimeBefore = runtimeBefore == null ? Map.of() : runtimeBefore;
        runtimeAfter = runtimeAfter == null ? Map.of() : runtimeAfter;
        ergonomicsChanged = ergonomicsChanged == null ? List.of() : List.copyOf(ergonomicsChanged);
        threadsBefore = threadsBefore == null ? Map.of() : threadsBefore;
        threadsAfter = threadsAfter == null ? Map.of() : threadsAfter;
    }

    /** How one level went: how long it was held, and what the last judged window showed. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Level(int users, double seconds, boolean finished, String reason, double compilerShare,
                        double trend, double meanRate) {
    }

    /** What the JVM said about its size before the boost: availableProcessors, event loops, worker maximum, ... */
    public Object before(String key) {
        return runtimeBefore.get(key);
    }
}
