package io.threadlab.experiment.plan;

/**
 * How a JVM is brought to its peak before anything is measured, and how "finished" is judged.
 *
 * <p>At 0.5 CPU the JIT is starved: its one C2 thread competes with up to 200 request threads for the quota, so under
 * load it runs about 6 % of a CPU and its queue holds hundreds of methods for minutes (measured: imperative's C2
 * queue at 150-200 for 5 minutes at 500 users). So the warm-up first raises the quota ({@code boostCpus}) while the
 * JVM serves load, until the queue has drained, then returns to the experiment's quota and holds each load level that
 * will be measured until the compiler is proven finished there: its queue empty at every sample, its threads using at
 * most {@code compilerQuietShare} of the quota, and the throughput without a trend beyond {@code tolerance}.
 * With {@code boostCpus} equal to the quota there is no boost: the warm-up is then the time to peak at the quota.
 *
 * @param preBoostSeconds load at the quota before any boost, so that whatever sizes itself on first use (the
 *                        virtual-thread scheduler, pools) does so at the quota, as it would in a 0.5-CPU container
 */
public record WarmUpPolicy(double boostCpus, int sampleSeconds, int preBoostSeconds, int boostMaxSeconds,
                           int levelMinSeconds, int levelMaxSeconds, double compilerQuietShare, double tolerance) {

    public WarmUpPolicy {
        if (sampleSeconds < 1 || preBoostSeconds < 0 || boostMaxSeconds < 0 || levelMinSeconds < 2 * sampleSeconds
                || levelMaxSeconds < levelMinSeconds || compilerQuietShare <= 0 || tolerance <= 0) {
            // the parameters, not this: in a compact constructor the fields are not assigned yet
            throw new IllegalArgumentException(String.format("the warm-up needs samples of at least 1 s, a level held at"
                    + " least two samples, ceilings at or above their minimum and positive thresholds; got samples of %d"
                    + " s, a pre-boost of %d s, a boost of at most %d s (--warmup-boost-max), a level held %d to %d s"
                    + " (--warmup-level-max), compiler quiet at %.3f, tolerance %.3f", sampleSeconds, preBoostSeconds,
                    boostMaxSeconds, levelMinSeconds, levelMaxSeconds, compilerQuietShare, tolerance));
        }
    }

    /**
     * Scrapes of the variant's /q/metrics a sample at the start of the boost, until {@link #HOT_SCRAPES} are answered
     * (one a sample otherwise; in the background, never waited for): the runner's own scrape path is then compiled in
     * the boost, not in a measured window (see the warm-up's sampler). Every variant's, and in the manifest.
     */
    public static final int BOOSTED_SCRAPES = 10;
    /** Scrapes that make the metrics path hot: Prometheus' writeOpenMetrics100 was compiled by C2 after about 45. */
    public static final int HOT_SCRAPES = 60;

    /** The compiler threads' share of the quota at or below which the compiler counts as quiet, everywhere. */
    public static final double COMPILER_QUIET_SHARE = 0.02;

    /** Boost to {@code boostCpus}, then prove each level at the quota (quick: shorter windows and ceilings). */
    public static WarmUpPolicy boosted(double boostCpus, int boostMaxSeconds, int levelMaxSeconds, boolean quick) {
        return new WarmUpPolicy(boostCpus, 2, quick ? 2 : 4, boostMaxSeconds, quick ? 4 : 10, levelMaxSeconds,
                COMPILER_QUIET_SHARE, 0.10);
    }

    /** For time to peak: no boost, one long hold at the quota. */
    public static WarmUpPolicy atQuota(double quota, int ceilingSeconds) {
        return new WarmUpPolicy(quota, 5, 0, 0, 30, ceilingSeconds, COMPILER_QUIET_SHARE, 0.10);
    }

    public boolean boosts(double quota) {
        return boostCpus > quota;
    }

    /** Samples in one judged window. */
    public int windowSamples() {
        return levelMinSeconds / sampleSeconds;
    }
}
