package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one run measures, as a schedule of steps.
 *
 * <p>Every variant is started {@code jvmStarts} times. With {@code sideBySide} (local JVMs), all JVMs are started and warmed
 * up before the first measured window, then the repetitions run, each taking every variant once in rotated order
 * (A B C, B C A, ...) and alternating between the JVM starts, so that slow drift of the machine and a JVM's own luck
 * are both spread and visible. Otherwise (containers: one JVM per service at a time) the JVM starts come in rounds:
 * start, warm up, that round's repetitions, stop.
 *
 * <p>Headline windows run without the detailed JFR settings. At the highest level each repetition adds a twin with
 * the detailed recording right after its plain window, so that the recording's cost is measured in pairs; at other
 * levels the first repetition does, for the thread analysis. The open model's arrival-rate steps run once per variant.
 */
public record ExperimentPlan(List<Variant> variants, List<Integer> levels, int windowSeconds, int settleSeconds,
                             int settleMaxSeconds,
                             int jvmStarts, int repetitionsPerJvm, WarmUpPolicy warmUp, List<Integer> openRates,
                             int openStepSeconds, boolean jfrWindows, boolean timeToPeak, int timeToPeakCeiling,
                             boolean sideBySide, Knobs knobs) {

    public ExperimentPlan {
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("at least one variant");
        }
        if (levels.isEmpty() || levels.stream().anyMatch(l -> l < 1 || l > 10_000)) {
            throw new IllegalArgumentException("--levels must be user counts from 1 to 10000, was " + levels);
        }
        if (windowSeconds < 1 || settleSeconds < 0 || openStepSeconds < 1) {
            throw new IllegalArgumentException("--window and --open-step must be at least 1, --settle at least 0");
        }
        if (settleMaxSeconds < settleSeconds) {
            throw new IllegalArgumentException("--settle-max must be at least --settle (" + settleSeconds + "), was "
                    + settleMaxSeconds);
        }
        if (jvmStarts < 1 || repetitionsPerJvm < 1) {
            throw new IllegalArgumentException("--jvm-starts and --repetitions must be at least 1");
        }
        if (openRates.stream().anyMatch(r -> r < 1)) {
            throw new IllegalArgumentException("--open-rates must be positive, was " + openRates);
        }
        if (timeToPeak && timeToPeakCeiling < 30) {
            throw new IllegalArgumentException("--time-to-peak-max must be at least 30 s (one judged window), was "
                    + timeToPeakCeiling);
        }
        if (warmUp.boostCpus() < knobs.cpuQuota()) {
            throw new IllegalArgumentException("--warmup-cpus must be at least the experiment's quota (" + knobs.cpuQuota()
                    + "), was " + warmUp.boostCpus());
        }
        variants = List.copyOf(variants);
        levels = List.copyOf(levels);
        openRates = List.copyOf(openRates);
    }

    public int repetitions() {
        return jvmStarts * repetitionsPerJvm;
    }

    public int topLevel() {
        return levels.stream().mapToInt(i -> i).max().orElseThrow();
    }

    /** Every JVM the repetitions use; side by side, each start of a variant listens 100 ports above the last. */
    public List<Jvm> jvms() {
        List<Jvm> jvms = new ArrayList<>();
        for (int start = 1; start <= jvmStarts; start++) {
            for (Variant variant : variants) {
                jvms.add(jvm(variant, start));
            }
        }
        return jvms;
    }

    private Jvm jvm(Variant variant, int start) {
        return new Jvm(variant, start, sideBySide ? variant.port() + 100 * (start - 1) : variant.port());
    }

    /** Levels in the order a warm-up proves them: the highest first, where the boost left the JVM. */
    private List<Integer> warmUpLevels() {
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
                List<Jvm> jvms = variants.stream().map(v -> jvm(v, round)).toList();
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
            variants.forEach(v -> steps.add(new Step.TimeToPeak(jvm(v, jvmStarts + 1), topLevel(), atQuota)));
        }
        return new Schedule(steps);
    }

    private void repetition(List<Step> steps, int rep, int start) {
        List<Variant> order = new ArrayList<>(variants);
        Collections.rotate(order, -(rep - 1));
        for (Variant variant : order) {
            windows(jvm(variant, start), rep).forEach(w -> steps.add(new Step.Measure(w)));
        }
    }

    private List<Window> windows(Jvm jvm, int rep) {
        List<Window> windows = new ArrayList<>();
        for (int vus : levels) {
            Window.Closed load = new Window.Closed(vus, settleSeconds, windowSeconds);
            windows.add(new Window(jvm, rep, load, false));
            if (jfrWindows && (vus == topLevel() || rep == 1)) {
                // Right after its plain twin, so that the two differ in the recording only.
                windows.add(new Window(jvm, rep, load, true));
            }
        }
        if (rep == 1 && !openRates.isEmpty()) {
            windows.add(new Window(jvm, rep, new Window.OpenSteps(openRates, openStepSeconds), false));
        }
        return windows;
    }
}
