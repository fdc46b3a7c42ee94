package io.threadlab.experiment.plan;

/**
 * Warm up until the JVM is steady, with a floor and a ceiling. Under 0.5 CPU the JIT shares the quota: throughput
 * plateaus while the compiler is still busy and then jumps (measured: 1,700 req/s "steady" for 10 s, then 4,000
 * once C2 finished). So steady means both: the last {@code steadySamples} throughput samples within
 * {@code tolerance} of their mean, and the JIT compiling less than {@code jitQuietMsPerSecond} on average over them.
 */
public record WarmUpPolicy(int vus, int minSeconds, int maxSeconds, int sampleSeconds, int steadySamples,
                           double tolerance, double jitQuietMsPerSecond) {

    public WarmUpPolicy {
        if (minSeconds < 0 || maxSeconds < minSeconds || sampleSeconds < 1 || steadySamples < 2
                || tolerance <= 0 || vus < 1 || jitQuietMsPerSecond <= 0) {
            throw new IllegalArgumentException("warm-up needs 0 <= min <= max, sample >= 1 s, >= 2 steady samples,"
                    + " a positive tolerance, a positive JIT threshold and users; got " + this);
        }
    }

    /** For the progress estimate: at 0.5 CPU a warm-up took 75 to 95 s (measured). */
    int typicalSeconds() {
        return Math.min(maxSeconds, Math.max(minSeconds, 80));
    }
}
