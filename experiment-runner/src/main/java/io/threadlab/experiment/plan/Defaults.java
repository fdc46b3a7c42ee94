package io.threadlab.experiment.plan;

import java.util.Arrays;
import java.util.List;

/**
 * Every default of the runner, written once: the option help quotes these constants, the plans are built from them,
 * and a test holds the README's flag table to {@code --help}. Per mode: a normal run, a quick one (a smoke run of the
 * same pipeline), the mistakes gallery, and the regime map. The knobs' defaults (quota, heap, GC, pools, timeouts,
 * the delay) come from .env, which compose reads too.
 */
public record Defaults(String levels, String delays, int windowSeconds, int settleSeconds, int settleMaxSeconds,
                       int jvmStarts, int repetitions, int warmUpBoostMaxSeconds, int warmUpLevelMaxSeconds,
                       String openRates, String openShares, int openStepSeconds) {

    public static final String LEVELS = "100,500";
    public static final int WINDOW = 10;
    public static final int QUICK_WINDOW = 4;
    public static final int SETTLE = 3;
    public static final int QUICK_SETTLE = 1;
    public static final int SETTLE_MAX = 40;
    public static final int QUICK_SETTLE_MAX = 10;
    public static final int JVM_STARTS = 2;
    public static final int MISTAKES_JVM_STARTS = 1;
    public static final int REPETITIONS = 2;
    public static final int MISTAKES_REPETITIONS = 3;
    public static final int BOOST_MAX = 150;
    public static final int QUICK_BOOST_MAX = 30;
    public static final int LEVEL_MAX = 90;
    public static final int QUICK_LEVEL_MAX = 12;
    public static final String OPEN_RATES = "250,500,1000,2000,4000,8000";
    public static final String QUICK_OPEN_RATES = "500,2000";
    public static final int OPEN_STEP = 6;
    public static final int QUICK_OPEN_STEP = 3;
    public static final int TIME_TO_PEAK_MAX = 480;
    public static final String LOAD_CPUS = "shared";

    public static final String MAP_LEVELS = "10,100,500,1000,3000";
    public static final String MAP_DELAYS = "1,10,100,300,1000";
    public static final int MAP_WINDOW = 6;
    public static final int MAP_SETTLE = 2;
    public static final int MAP_SETTLE_MAX = 30;
    public static final int MAP_LEVEL_MAX = 60;
    public static final String MAP_OPEN_SHARES = "0.25,0.5,0.75,0.9,1.0,1.15";
    public static final int MAP_OPEN_STEP = 4;

    public static final Defaults RUN = new Defaults(LEVELS, null, WINDOW, SETTLE, SETTLE_MAX, JVM_STARTS, REPETITIONS,
            BOOST_MAX, LEVEL_MAX, OPEN_RATES, "", OPEN_STEP);
    public static final Defaults QUICK = new Defaults(LEVELS, null, QUICK_WINDOW, QUICK_SETTLE, QUICK_SETTLE_MAX, 1, 1,
            QUICK_BOOST_MAX, QUICK_LEVEL_MAX, QUICK_OPEN_RATES, "", QUICK_OPEN_STEP);
    public static final Defaults MISTAKES = new Defaults(LEVELS, null, WINDOW, SETTLE, SETTLE_MAX, MISTAKES_JVM_STARTS,
            MISTAKES_REPETITIONS, BOOST_MAX, LEVEL_MAX, OPEN_RATES, "", OPEN_STEP);
    public static final Defaults MAP = new Defaults(MAP_LEVELS, MAP_DELAYS, MAP_WINDOW, MAP_SETTLE, MAP_SETTLE_MAX, 1,
            1, BOOST_MAX, MAP_LEVEL_MAX, "", MAP_OPEN_SHARES, MAP_OPEN_STEP);
    public static final Defaults QUICK_MAP = new Defaults("20,200", "1,100", QUICK_WINDOW, QUICK_SETTLE,
            QUICK_SETTLE_MAX, 1, 1, QUICK_BOOST_MAX, QUICK_LEVEL_MAX, "", "0.5,1.0", QUICK_OPEN_STEP);

    public static List<Integer> integers(String csv) {
        return csv == null || csv.isBlank() ? List.of()
                : Arrays.stream(csv.split(",")).map(String::trim).map(Integer::valueOf).toList();
    }

    public static List<Double> decimals(String csv) {
        return csv == null || csv.isBlank() ? List.of()
                : Arrays.stream(csv.split(",")).map(String::trim).map(Double::valueOf).toList();
    }
}
