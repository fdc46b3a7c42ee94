package io.threadlab.experiment.plan;

import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Objects;

/**
 * What each JVM measures right after its warm-up, before any of its predictions: short closed-model windows at a few
 * numbers of users, at one delay or more (each a stage), from the most users down (the warm-up ends at the most). The
 * capacity model of that JVM is fitted to them, and every later window of the JVM is predicted from it before it is
 * measured. The first stage is the CPU curve in the requests waiting in the JVM; a stage at a longer delay puts more
 * calls in flight at the downstream for as many waiting, which is how the model learns what those cost.
 *
 * @param tries  how many times a window is measured at most while its compiler was busy in it, or it stalled (see
 *               {@link #TRIES})
 * @param stages each delay's users, the first stage first; none: no calibration (and no predictions)
 */
public record Calibration(int windowSeconds, int tries, List<Stage> stages) {

    /** One delay's calibration windows: its users, most first. */
    public record Stage(int delayMs, List<Integer> levels) {
        public Stage {
            levels = levels.stream().sorted(java.util.Comparator.reverseOrder()).distinct().toList();
            if (levels.stream().anyMatch(l -> l < 1 || l > 10_000)) {
                throw new IllegalArgumentException("--calibration-levels must be user counts from 1 to 10000, was "
                        + levels);
            }
            if (delayMs < 0) {
                throw new IllegalArgumentException("--calibration-delay-ms must be 0 or more, was " + delayMs);
            }
        }
    }

    public static final Calibration NONE = new Calibration(1, 1, List.of());

    /**
     * How many times a calibration window is measured while its compiler was not quiet in it (above {@link
     * WarmUpPolicy#COMPILER_QUIET_SHARE} of the quota, or waiting to run, {@link #COMPILER_WAITING_SHARE}): every later
     * point is predicted from it, so it is taken on a finished compiler where it can be. Seen in the map of 2026-11-27:
     * the event loop calibrated at 200 users with its compiler at 4.8 % of the quota cost 0.133 ms a request, and
     * 0.091-0.101 ms at 100 and 500 users minutes later. The most a plan may ask for, and what a run and a map ask for;
     * a step's ceiling allows for all of them.
     */
    public static final int TRIES = Defaults.CALIBRATION_TRIES;

    /** One delay, measured once per level. */
    public Calibration(List<Integer> levels, int delayMs, int windowSeconds) {
        this(windowSeconds, 1, List.of(new Stage(delayMs, levels)));
    }

    /** One delay. */
    public Calibration(List<Integer> levels, int delayMs, int windowSeconds, int tries) {
        this(windowSeconds, tries, List.of(new Stage(delayMs, levels)));
    }

    public Calibration {
        stages = stages.stream().filter(s -> !s.levels().isEmpty()).toList();
        if (!stages.isEmpty() && stages.getFirst().levels().size() < 2) {
            throw new IllegalArgumentException("--calibration-levels needs at least two numbers of users at the first"
                    + " delay: the CPU per request is fitted as a function of them, was "
                    + stages.getFirst().levels());
        }
        if (stages.stream().map(Stage::delayMs).distinct().count() < stages.size()) {
            throw new IllegalArgumentException("--calibration-delay-ms names a delay twice: "
                    + stages.stream().map(Stage::delayMs).toList());
        }
        if (windowSeconds < 1) {
            throw new IllegalArgumentException("a calibration window lasts at least 1 s");
        }
        if (tries < 1 || tries > TRIES) {
            throw new IllegalArgumentException("a calibration window is measured 1 to " + TRIES + " times, was " + tries);
        }
    }

    /**
     * The stages of {@code --calibration-delay-ms} and {@code --calibration-levels}: the levels are one list per delay,
     * the lists separated by {@code /} ("700,300,150,10/1000,700"); a delay without a list of its own takes the last
     * one given.
     */
    public static List<Stage> stages(List<Integer> delays, String levels) {
        List<List<Integer>> groups = java.util.Arrays.stream(levels.split("/")).map(Defaults::integers).toList();
        if (groups.size() > delays.size()) {
            throw new IllegalArgumentException("--calibration-levels gives " + groups.size() + " lists of users ("
                    + levels + ") for " + delays.size() + " calibration delays " + delays);
        }
        List<Stage> stages = new java.util.ArrayList<>();
        for (int i = 0; i < delays.size(); i++) {
            stages.add(new Stage(delays.get(i), groups.get(Math.min(i, groups.size() - 1))));
        }
        return stages;
    }

    /**
     * A compiler starved by the quota uses little CPU and still is not finished: its threads wait to run. Seen in the
     * maps of 2026-11-27: the imperative JVM's calibration at 3,000 users served 1,600-1,900 req/s at 0.316-0.335 ms
     * a request with its compiler at 0.3-0.8 % of the quota but waiting to run 8.5-19 % of the window (recompiling
     * the classic client's connection pool, deoptimised as the warm-up's boost ended), and 2,875-3,082 at 0.160-0.180
     * ms at the same point minutes later; where that calibration held (0.119 and 0.140 ms), its compiler waited 0.1 %.
     * Calibration windows whose compiler was known finished waited at most 3.8 % of theirs.
     */
    public static final double COMPILER_WAITING_SHARE = 0.05;

    /**
     * A window whose slowest second served less than this share of its fastest stalled inside it. Seen in the map of
     * 2026-11-28T07-17-02Z: the imperative JVM's calibration at 200 users served 3,142, 1,709, 105, 27, 264 and 3,350
     * req/s in its six seconds, on its whole quota with a quiet compiler (0.347 CPU-ms a request, where 0.14-0.21 was
     * measured at 30 and 700 users beside it), and the CPU per request fitted through it predicted 540 req/s at 1 ms x
     * 100 users where the JVM served 3,201. In the 140 other calibration windows of the 19 runs of 2026-11-27/28 the
     * slowest second served at least 0.505 of the fastest (median 0.85).
     */
    public static final double STALLED_SECOND_SHARE = 0.25;

    /**
     * Whether a calibration window is taken again: its compiler used more than
     * {@link WarmUpPolicy#COMPILER_QUIET_SHARE} of the quota ({@code compilerShare}), or its threads waited to run
     * for more than {@link #COMPILER_WAITING_SHARE} of the window ({@code compilerWaitShare}), or its slowest second
     * served less than {@link #STALLED_SECOND_SHARE} of its fastest ({@code slowestSecondShare}). Unknown (NaN) is not
     * judged. k6's count lagging the downstream's is no reason: the window's throughput is the downstream's.
     */
    public boolean measureAgain(int attempt, double compilerShare, double compilerWaitShare,
                                double slowestSecondShare) {
        return attempt < tries && (compilerShare > WarmUpPolicy.COMPILER_QUIET_SHARE
                || compilerWaitShare > COMPILER_WAITING_SHARE || slowestSecondShare < STALLED_SECOND_SHARE);
    }

    /** The slowest second's throughput over the fastest's; NaN with fewer than two seconds or none served. */
    public static double slowestSecondShare(List<Double> perSecond) {
        DoubleSummaryStatistics seconds = perSecond.stream().filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue).summaryStatistics();
        return seconds.getCount() < 2 || !(seconds.getMax() > 0) ? Double.NaN : seconds.getMin() / seconds.getMax();
    }

    public boolean any() {
        return !stages.isEmpty();
    }

    /** The first stage's users: the CPU curve's, where the fan-out is calibrated too. */
    public List<Integer> levels() {
        return stages.isEmpty() ? List.of() : stages.getFirst().levels();
    }

    /** The first stage's delay. */
    public int delayMs() {
        return stages.isEmpty() ? 0 : stages.getFirst().delayMs();
    }

    /** Every stage's delay, the first stage's first. */
    public List<Integer> delays() {
        return stages.stream().map(Stage::delayMs).toList();
    }

    /**
     * The first stage's most users: where the warm-up ends and the calibration begins. A later stage's levels settle
     * at their own delay before they are measured, as every window does.
     */
    public int topLevel() {
        return levels().isEmpty() ? 0 : levels().getFirst();
    }
}
