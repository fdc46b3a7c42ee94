package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one run measures, as a schedule of steps.
 *
 * <p>{@code run}: every variant is started {@code jvmStarts} times. With {@code sideBySide} (local JVMs), all JVMs are
 * started and warmed up before the first measured window, then the repetitions run, each taking every variant once
 * in rotated order (A B C, B C A, ...) and alternating between the JVM starts, so that slow drift of the machine and a
 * JVM's own luck are both spread and visible. Otherwise (containers: one JVM per service at a time) the JVM starts
 * come in rounds: start, warm up, that round's repetitions, stop. Headline windows run without the detailed JFR
 * settings. At the highest level each repetition adds a twin with the detailed recording right after its plain
 * window, so that the recording's cost is measured in pairs; at other levels the first repetition does, for the
 * thread analysis. The open model's steps run in the first repetition, at every delay.
 *
 * <p>{@code map}: every point of a grid of users and downstream delays, per variant and per setup (the optional axes:
 * CPU quota, worker-pool maximum, connection-pool size, each a JVM of its own). Within one JVM the users rise and, at
 * each number of users, the delays rise, so the load at one level runs on from one delay to the next; then the open
 * model at each delay, its rates shares of what the closed model reached there.
 *
 * <p>Within one JVM, consecutive windows at the same users share one running load (see {@code load.LoadSession}).
 */
public record ExperimentPlan(Mode mode, List<Variant> variants, List<Setup> setups, List<Integer> levels,
                             List<Integer> delays, Timing timing, int jvmStarts, int repetitionsPerJvm,
                             WarmUpPolicy warmUp, OpenModel open, boolean jfrWindows, boolean timeToPeak,
                             int timeToPeakCeiling, boolean sideBySide, Knobs knobs, PrecisionGoal precision,
                             LoadPlacement placement) {

    public enum Mode { RUN, MAP }

    /** A plan without precision on demand, the load sharing the CPUs with the variants. */
    public ExperimentPlan(Mode mode, List<Variant> variants, List<Setup> setups, List<Integer> levels,
                          List<Integer> delays, Timing timing, int jvmStarts, int repetitionsPerJvm,
                          WarmUpPolicy warmUp, OpenModel open, boolean jfrWindows, boolean timeToPeak,
                          int timeToPeakCeiling, boolean sideBySide, Knobs knobs) {
        this(mode, variants, setups, levels, delays, timing, jvmStarts, repetitionsPerJvm, warmUp, open, jfrWindows,
                timeToPeak, timeToPeakCeiling, sideBySide, knobs, PrecisionGoal.NONE, LoadPlacement.SHARED);
    }

    public ExperimentPlan {
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("at least one variant");
        }
        if (levels.isEmpty() || levels.stream().anyMatch(l -> l < 1 || l > 10_000)) {
            throw new IllegalArgumentException("--levels must be user counts from 1 to 10000, was " + levels);
        }
        if (delays.isEmpty() || delays.stream().anyMatch(d -> d < 0 || d > 60_000)) {
            throw new IllegalArgumentException("--delay-ms must be delays from 0 to 60000 ms, was " + delays);
        }
        if (jvmStarts < 1 || repetitionsPerJvm < 1) {
            throw new IllegalArgumentException("--jvm-starts and --repetitions must be at least 1");
        }
        if (timeToPeak && timeToPeakCeiling < 30) {
            throw new IllegalArgumentException("--time-to-peak-max must be at least 30 s (one judged window), was "
                    + timeToPeakCeiling);
        }
        if (warmUp.boostCpus() < knobs.cpuQuota()) {
            throw new IllegalArgumentException("--warmup-cpus must be at least the experiment's quota (" + knobs.cpuQuota()
                    + "), was " + warmUp.boostCpus());
        }
        for (Integer delay : delays) {
            if (delay >= knobs.readTimeoutMs()) {
                throw new IllegalArgumentException("--delay-ms " + delay + " is not below the client's read timeout ("
                        + knobs.readTimeoutMs() + " ms, --read-timeout-ms): every call would time out");
            }
        }
        if (precision.active() && (mode != Mode.RUN || timeToPeak)) {
            throw new IllegalArgumentException("--precision and --budget add JVM starts to a run; not to a map, and"
                    + " not with --time-to-peak");
        }
        if (precision.active() && precision.maxJvmStarts() < jvmStarts) {
            throw new IllegalArgumentException("--max-jvm-starts must be at least --jvm-starts (" + jvmStarts + ")");
        }
        variants = List.copyOf(variants);
        setups = setups.isEmpty() ? List.of(Setup.NONE) : List.copyOf(setups);
        levels = List.copyOf(levels);
        delays = List.copyOf(delays);
    }

    public int repetitions() {
        return jvmStarts * repetitionsPerJvm;
    }

    public int topLevel() {
        return levels.stream().mapToInt(i -> i).max().orElseThrow();
    }

    /** The setups a variant is started with: the worker-pool axis only where requests run on workers. */
    public List<Setup> setupsOf(Variant variant) {
        List<Setup> own = new ArrayList<>();
        for (Setup s : setups) {
            Setup applied = variant.threads() == Variant.Threads.WORKER ? s : new Setup(s.cpus(), null, s.poolSize());
            if (!own.contains(applied)) {
                own.add(applied);
            }
        }
        return own;
    }

    /** Every JVM the repetitions use; side by side, each JVM of a variant listens 100 ports above the last. */
    public List<Jvm> jvms() {
        List<Jvm> jvms = new ArrayList<>();
        for (int start = 1; start <= jvmStarts; start++) {
            for (Variant variant : variants) {
                for (Setup setup : setupsOf(variant)) {
                    jvms.add(jvm(variant, setup, start));
                }
            }
        }
        return jvms;
    }

    private Jvm jvm(Variant variant, Setup setup, int start) {
        int index = (start - 1) * setupsOf(variant).size() + setupsOf(variant).indexOf(setup);
        return new Jvm(variant, start, sideBySide ? variant.port() + 100 * index : variant.port(), setup);
    }

    /** The knobs a JVM runs with: the run's, changed by its setup. */
    public Knobs knobsOf(Jvm jvm) {
        return jvm.setup().applyTo(knobs);
    }

    /**
     * Levels in the order a warm-up proves them: the highest first, where the boost left the JVM. The map proves its
     * highest only: its grid has too many levels to prove each, and each point settles until the compiler is quiet.
     */
    private List<Integer> warmUpLevels() {
        if (mode == Mode.MAP) {
            return List.of(topLevel());
        }
        List<Integer> order = new ArrayList<>(levels);
        order.sort(Collections.reverseOrder());
        return order;
    }

    public Schedule schedule() {
        List<Step> steps = new ArrayList<>();
        if (sideBySide) {
            steps.add(new Step.StartJvms(jvms()));
            jvms().forEach(jvm -> steps.add(new Step.WarmUp(jvm, warmUpLevels(), warmUp)));
            for (int rep = 1; rep <= repetitions(); rep++) {
                repetition(steps, rep, (rep - 1) % jvmStarts + 1);
            }
        } else {
            for (int start = 1; start <= jvmStarts; start++) {
                int round = start;
                List<Jvm> jvms = jvms().stream().filter(j -> j.start() == round).toList();
                steps.add(new Step.StartJvms(jvms));
                jvms.forEach(jvm -> steps.add(new Step.WarmUp(jvm, warmUpLevels(), warmUp)));
                for (int r = 1; r <= repetitionsPerJvm; r++) {
                    repetition(steps, (start - 1) * repetitionsPerJvm + r, start);
                }
                steps.add(new Step.StopJvms(jvms));
            }
        }
        if (timeToPeak) {
            WarmUpPolicy atQuota = WarmUpPolicy.atQuota(knobs.cpuQuota(), timeToPeakCeiling);
            // a fresh JVM per variant, beside the others: on the next free port of its variant
            variants.forEach(v -> steps.add(new Step.TimeToPeak(new Jvm(v, jvmStarts + 1, sideBySide
                    ? v.port() + 100 * jvmStarts * setupsOf(v).size() : v.port()), topLevel(), atQuota)));
        }
        return new Schedule(steps);
    }

    /**
     * One more JVM start of every variant, as precision on demand adds it: start, warm up, its repetitions (rotated
     * as the plan's), stop. Its JVMs listen where the plan's own JVMs of that start would.
     */
    public List<Step> block(int start) {
        List<Step> steps = new ArrayList<>();
        List<Jvm> jvms = new ArrayList<>();
        variants.forEach(v -> setupsOf(v).forEach(s -> jvms.add(jvm(v, s, start))));
        steps.add(new Step.StartJvms(jvms));
        jvms.forEach(jvm -> steps.add(new Step.WarmUp(jvm, warmUpLevels(), warmUp)));
        for (int r = 1; r <= repetitionsPerJvm; r++) {
            repetition(steps, (start - 1) * repetitionsPerJvm + r, start);
        }
        steps.add(new Step.StopJvms(jvms));
        return steps;
    }

    /** The plan's estimate of one block, in seconds: what a budget must at least allow. */
    public int blockSeconds() {
        return new Schedule(block(jvmStarts + 1)).estimatedSeconds();
    }

    private void repetition(List<Step> steps, int rep, int start) {
        List<Variant> order = new ArrayList<>(variants);
        Collections.rotate(order, -(rep - 1));
        for (Variant variant : order) {
            for (Setup setup : setupsOf(variant)) {
                windows(jvm(variant, setup, start), rep).forEach(w -> steps.add(new Step.Measure(w)));
            }
        }
    }

    private List<Window> windows(Jvm jvm, int rep) {
        List<Window> windows = new ArrayList<>();
        List<Integer> users = new ArrayList<>(levels);
        if (mode == Mode.MAP) {
            Collections.sort(users);
        }
        for (int vus : users) {
            Window.Closed load = new Window.Closed(vus, timing.settleSeconds(), timing.windowSeconds());
            for (int delay : delays) {
                windows.add(new Window(jvm, rep, load, false, delay));
                if (jfrWindows && (vus == topLevel() || mode == Mode.RUN && rep == 1)) {
                    // Right after its plain twin, so that the two differ in the recording only.
                    windows.add(new Window(jvm, rep, load, true, delay));
                }
            }
        }
        if (rep == 1 && open.any()) {
            delays.forEach(delay -> windows.add(new Window(jvm, rep, open.steps(), false, delay)));
        }
        return windows;
    }
}
