package io.threadlab.experiment.load;

import io.threadlab.experiment.collect.CompilerSample;

import io.threadlab.experiment.plan.WarmUpPolicy;

import java.util.List;
import java.util.Locale;

/**
 * Decides, from samples alone, when a boost may end and when a load level is finished: the compiler's own state
 * (queue, CPU of its threads), not completed-compilation time, which a starved compiler does not report until its
 * compilation ends, seconds later.
 */
public final class WarmUpJudge {

    /** Compiler CPU below which a boosted JVM has nothing left worth a boost: 5 % of one CPU. */
    static final double BOOST_QUIET_MS_PER_SECOND = 50;
    /** A handful of C1 (tier 3) methods come and go in milliseconds; only C2 work is slow enough to starve. */
    static final long C1_QUEUE_NOISE = 10;

    private WarmUpJudge() {
    }

    /** What a judged window showed, with the reason in words when it was not finished. */
    public record Judgement(boolean finished, String reason, double compilerShare, long maxC2Queue, double trend) {
    }

    /** The boost may end: the queue empty (where known) and the compiler nearly idle over the last two samples. */
    public static boolean boostDone(List<CompilerSample> samples) {
        if (samples.size() < 2) {
            return false;
        }
        List<CompilerSample> last = samples.subList(samples.size() - 2, samples.size());
        boolean queueEmpty = last.stream().allMatch(s -> !s.queueKnown() || (s.c2Queue() == 0
                && s.c1Queue() <= C1_QUEUE_NOISE));
        double busy = last.stream().mapToDouble(s -> s.compilerCpuMsPerSecond() + s.compilerWaitMsPerSecond())
                .average().orElse(Double.MAX_VALUE);
        return queueEmpty && busy <= BOOST_QUIET_MS_PER_SECOND;
    }

    /**
     * A window at one load level, at the quota, is finished when the C2 queue was empty at every sample, the compiler
     * threads used at most the policy's share of the quota, and the throughput has no trend beyond the tolerance.
     */
    public static Judgement level(List<CompilerSample> window, double quota, WarmUpPolicy policy) {
        long maxC2 = window.stream().mapToLong(CompilerSample::c2Queue).max().orElse(-1);
        long maxC1 = window.stream().mapToLong(CompilerSample::c1Queue).max().orElse(-1);
        double compilerShare = window.stream().mapToDouble(CompilerSample::compilerCpuMsPerSecond).average()
                .orElse(Double.NaN) / 1000.0 / quota;
        double trend = trend(window);
        if (window.size() < policy.windowSamples()) {
            return new Judgement(false, "too few samples yet", compilerShare, maxC2, trend);
        }
        if (window.stream().mapToDouble(CompilerSample::requestsPerSecond).average().orElse(0) <= 0) {
            return new Judgement(false, "no requests answered", compilerShare, maxC2, trend);
        }
        if (maxC2 > 0 || maxC1 > C1_QUEUE_NOISE) {
            return new Judgement(false, String.format(Locale.ROOT, "compile queue not empty (C2 up to %d, C1 up to %d)",
                    maxC2, maxC1), compilerShare, maxC2, trend);
        }
        if (compilerShare > policy.compilerQuietShare()) {
            return new Judgement(false, String.format(Locale.ROOT, "compiler threads used %.1f %% of the quota",
                    compilerShare * 100), compilerShare, maxC2, trend);
        }
        if (Math.abs(trend) > policy.tolerance()) {
            return new Judgement(false, String.format(Locale.ROOT, "throughput trend %+.0f %% across the window",
                    trend * 100), compilerShare, maxC2, trend);
        }
        return new Judgement(true, "finished", compilerShare, maxC2, trend);
    }

    /** Least-squares change of the rate across the window, relative to its mean. */
    static double trend(List<CompilerSample> window) {
        int n = window.size();
        if (n < 2) {
            return Double.NaN;
        }
        double mt = window.stream().mapToDouble(CompilerSample::elapsedSeconds).average().orElseThrow();
        double mr = window.stream().mapToDouble(CompilerSample::requestsPerSecond).average().orElseThrow();
        double num = 0;
        double den = 0;
        for (CompilerSample s : window) {
            num += (s.elapsedSeconds() - mt) * (s.requestsPerSecond() - mr);
            den += (s.elapsedSeconds() - mt) * (s.elapsedSeconds() - mt);
        }
        double span = window.getLast().elapsedSeconds() - window.getFirst().elapsedSeconds();
        return den == 0 || mr <= 0 ? Double.NaN : num / den * span / mr;
    }
}
