package io.threadlab.experiment.plan;

import java.util.Arrays;
import java.util.List;

/**
 * Every default of the runner's plans, written once: the option help quotes these constants, the plans are built from
 * them, and a test holds the README's flag tables to {@code --help}. Per mode: a normal run, a quick one (a smoke run
 * of the same pipeline), the mistakes gallery, and the regime map. The knobs' defaults (quota, heap, GC, pools,
 * timeouts, the delay) are not here: they are .env's, which compose reads too ({@code LabSettings}).
 *
 * <p>Why a run is 2 JVM starts of 1 repetition each, with more JVM starts on demand: the JVM start is where the
 * variance is (JVM means of one variant differed by up to 17 % in one run, while windows inside a JVM varied by
 * 4-8 %), and a JVM start costs about a minute of warm-up against 15 s for a window. A second repetition inside the
 * same JVM buys almost no precision; one more JVM start of the variant that limits an undecided ratio buys most.
 *
 * @param calibration the calibration's defaults
 * @param budget the default time budget of precision on demand ("" for none), e.g. "15m"
 */
public record Defaults(String levels, String delays, int windowSeconds, int settleSeconds, int settleMaxSeconds,
                       int jvmStarts, int repetitions, int warmUpBoostMaxSeconds, int warmUpLevelMaxSeconds,
                       String openRates, String openShares, int openStepSeconds, Calibrating calibration,
                       String budget) {

    /**
     * What each JVM is calibrated at by default.
     *
     * @param levels     the calibration's users, a list per delay separated by {@code /}; "" for none
     * @param moreDelays the delays calibrated after the first (.env's), e.g. "50"; "" for none
     * @param tries      how often a calibration window may be measured again where its compiler was still busy
     */
    public record Calibrating(String levels, String moreDelays, int windowSeconds, int tries) {
    }

    public static final String LEVELS = "100,500";
    /**
     * A measured window, in seconds. The headline's intervals are wide because JVM starts differ (the imperative
     * variant's by 11-35 % on 2026-11-28), not because windows are short; 6 s rather than 8 leaves the budget room
     * for the JVM start that narrows them.
     */
    public static final int WINDOW = 6;
    public static final int QUICK_WINDOW = 4;
    public static final int SETTLE = 3;
    public static final int QUICK_SETTLE = 1;
    public static final int SETTLE_MAX = 40;
    public static final int QUICK_SETTLE_MAX = 10;
    public static final int JVM_STARTS = 2;
    public static final int MISTAKES_JVM_STARTS = 1;
    public static final int REPETITIONS = 1;
    public static final int MISTAKES_REPETITIONS = 3;
    /**
     * The boost's ceiling, in seconds. The boost ends as soon as the compile queue drains (the delay service's JVMs in
     * under a minute); a JVM that runs its requests on a worker pool drains slowest, its compiler waiting for a CPU
     * among its workers. At 150 s, every imperative JVM through Hibernate since the page's wait was planned once gave
     * up its warm-up with C2's queue not empty (database-jpa-3, database-heldout-orm-pool30-2), and its ratios were no
     * finding; given more, the same JVM drained its queue after 186 s at 500 users and 198 s at 700, and was then
     * quiet at the quota within 12 s. A ceiling half as long again as the longer of those is paid in full only by a
     * JVM whose queue never drains.
     */
    public static final int BOOST_MAX = 300;
    public static final int QUICK_BOOST_MAX = 30;
    public static final int LEVEL_MAX = 90;
    public static final int QUICK_LEVEL_MAX = 12;
    /** The run measures no open model unless asked: the map's is the one that shows the SLO capacity at each delay. */
    public static final String OPEN_RATES = "";
    public static final String MISTAKES_OPEN_RATES = "250,500,1000,2000,4000,8000";
    public static final String QUICK_OPEN_RATES = "500,2000";
    public static final int OPEN_STEP = 6;
    public static final int QUICK_OPEN_STEP = 3;
    public static final int TIME_TO_PEAK_MAX = 480;
    public static final String LOAD_CPUS = "shared";
    /** Precision on demand within this budget, by default: the run's target is 15 minutes on 2 cores. */
    public static final String BUDGET = "15m";

    /**
     * Users the capacity model is calibrated at, after each JVM's warm-up: none of them is a headline level, so that
     * every headline point is predicted out of sample. At 10 ms every model saturates 0.5 CPU from about 80 users on
     * (the event loop's 7,000 req/s × 11.5 ms), so 150, 300 and 700 give the CPU per request around the headline's
     * 100 and 500 users, and 10 users, light, the time a request takes above the delay where nothing queues. Not
     * 1,000: there k6 kept only 821 of the event loop's users busy, at 0.32 of its 0.5 CPU.
     */
    public static final String CALIBRATION_LEVELS = "700,300,150,10/900,400";
    /**
     * The delays calibrated after the first: at 50 ms, five times the calls in flight of 10 ms for as many requests
     * waiting in the JVM, so that what they cost is measured (a calibration at one delay cannot see it: at 50 ms and
     * 1,000 users a request cost 0.095-0.097 CPU-ms where one at 10 ms had said 0.069-0.075). Not 100 ms: there the
     * imperative variant's 200 workers bind before its CPU does (200 ÷ 0.1 s), and its cost would not be measured.
     * Its users, 900 and 400, put about as many requests in the JVM as the first stage's 700 and 150 (the rest are at
     * the downstream: about 290 at the event loop's throughput), so that the two stages differ in the calls in flight
     * more than in anything else; and they are none of the default run's points, nor of the held-out points the lab
     * checks the model with (50 ms × 1,000 users, 100 ms × 2,000).
     */
    public static final String CALIBRATION_MORE_DELAYS = "50";
    public static final String QUICK_CALIBRATION_LEVELS = "700,150,10";
    public static final int CALIBRATION_WINDOW = 4;
    public static final int QUICK_CALIBRATION_WINDOW = 3;
    /** A run's and a map's calibration tries: the most a plan may ask for (why: {@link Calibration#TRIES}). */
    public static final int CALIBRATION_TRIES = 3;
    /** A quick run's compiler never finishes: measuring its calibration again would buy nothing. */
    public static final int QUICK_CALIBRATION_TRIES = 1;

    public static final String MAP_LEVELS = "10,100,500,1000,3000";
    public static final String MAP_DELAYS = "1,10,100,300,1000";
    /**
     * The map's windows are 5 s, its calibration's 6 s. Its 75 points are breadth, not the headline: cutting the
     * windows of two maps of 2026-11-27 from 6 s to their first 5 moved their throughput by a median 1.1 % (90th
     * percentile 4.3 %, per-second rates varying 10.7 % around their window's mean at 0.5 CPU); a second off each of
     * the 75 windows is 75 s of a map that was 2.5 min over its 30. Every prediction rests on a calibration window, so
     * those keep their 6 s.
     */
    public static final int MAP_WINDOW = 5;
    public static final int MAP_CALIBRATION_WINDOW = 6;
    public static final int MAP_SETTLE = 2;
    public static final int MAP_SETTLE_MAX = 30;
    public static final int MAP_LEVEL_MAX = 60;
    /**
     * The map's open model, as shares of the highest closed-model throughput at each delay. Not above 1: over the 140
     * open-model points of the ten maps measured up to 2026-11-27 with a step at 1.15, that step never met the SLO and
     * the step at 1.0 met it twice, so the overload the 1.15 step showed the 1.0 step shows already. It cost 4 s at each
     * of the 15 points and a longer drain behind 1,000 ms (57.6 s against 27.6-39.2 s for the others' whole point).
     */
    public static final String MAP_OPEN_SHARES = "0.25,0.5,0.75,0.9,1.0";
    public static final int MAP_OPEN_STEP = 4;
    /** The map's calibration: 30, 200 and 700 users are no grid level; 3,000 at the calibration's delay is marked so. */
    public static final String MAP_CALIBRATION_LEVELS = "3000,700,200,30/3000,1000";

    public static final Defaults RUN = new Defaults(LEVELS, null, WINDOW, SETTLE, SETTLE_MAX, JVM_STARTS, REPETITIONS,
            BOOST_MAX, LEVEL_MAX, OPEN_RATES, "", OPEN_STEP, new Calibrating(CALIBRATION_LEVELS,
            CALIBRATION_MORE_DELAYS, CALIBRATION_WINDOW, CALIBRATION_TRIES), BUDGET);
    public static final Defaults QUICK = new Defaults(LEVELS, null, QUICK_WINDOW, QUICK_SETTLE, QUICK_SETTLE_MAX, 1, 1,
            QUICK_BOOST_MAX, QUICK_LEVEL_MAX, QUICK_OPEN_RATES, "", QUICK_OPEN_STEP, new Calibrating(
            QUICK_CALIBRATION_LEVELS, "", QUICK_CALIBRATION_WINDOW, QUICK_CALIBRATION_TRIES), "");
    public static final Defaults MISTAKES = new Defaults(LEVELS, null, WINDOW, SETTLE, SETTLE_MAX, MISTAKES_JVM_STARTS,
            MISTAKES_REPETITIONS, BOOST_MAX, LEVEL_MAX, MISTAKES_OPEN_RATES, "", OPEN_STEP, new Calibrating("", "",
            CALIBRATION_WINDOW, CALIBRATION_TRIES), "");
    public static final Defaults MAP = new Defaults(MAP_LEVELS, MAP_DELAYS, MAP_WINDOW, MAP_SETTLE, MAP_SETTLE_MAX, 1,
            1, BOOST_MAX, MAP_LEVEL_MAX, "", MAP_OPEN_SHARES, MAP_OPEN_STEP, new Calibrating(MAP_CALIBRATION_LEVELS,
            CALIBRATION_MORE_DELAYS, MAP_CALIBRATION_WINDOW, CALIBRATION_TRIES), "");
    public static final Defaults QUICK_MAP = new Defaults("20,200", "1,100", QUICK_WINDOW, QUICK_SETTLE,
            QUICK_SETTLE_MAX, 1, 1, QUICK_BOOST_MAX, QUICK_LEVEL_MAX, "", "0.5,1.0", QUICK_OPEN_STEP, new Calibrating(
            "400,150,40", "", QUICK_CALIBRATION_WINDOW, QUICK_CALIBRATION_TRIES), "");

    /** Seed 004's waits: the burst's delays unless given. */
    public static final String BURST_DELAYS = "0,50,100,200,500,1000";
    /**
     * A burst run: seed 004's waits, one JVM start of each variant (a burst is one number per wait and model, the time
     * to its last answer; more JVM starts are --jvm-starts), calibrated as a run is, for the CPU ceiling of each burst.
     */
    public static final Defaults BURST = new Defaults("", BURST_DELAYS, WINDOW, SETTLE, SETTLE_MAX, 1, 1, BOOST_MAX,
            LEVEL_MAX, "", "", OPEN_STEP, new Calibrating(CALIBRATION_LEVELS, CALIBRATION_MORE_DELAYS,
            CALIBRATION_WINDOW, CALIBRATION_TRIES), "");

    public static List<Integer> integers(String csv) {
        return csv == null || csv.isBlank() ? List.of()
                : Arrays.stream(csv.split(",")).map(String::trim).map(Integer::valueOf).toList();
    }

    public static List<Double> decimals(String csv) {
        return csv == null || csv.isBlank() ? List.of()
                : Arrays.stream(csv.split(",")).map(String::trim).map(Double::valueOf).toList();
    }
}
