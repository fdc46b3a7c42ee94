package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Headroom;
import io.threadlab.experiment.record.Yardstick;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Whether the instruments beside the variants kept up: the delay service at each delay, and k6 by the one rule
 * ({@link Headroom}) the runner warned by, on the run's own machine's CPUs; and whether the machine under them all
 * kept its speed.
 */
final class HeadroomChecks {

    /** The delay service kept up when it served its wait within this share of it (and a millisecond). */
    static final double DELAY_LATE_SHARE = 0.3;
    /** The slowest windows a failed machine check names; the rest are counted. */
    private static final int MACHINE_NAMED = 8;

    private HeadroomChecks() {
    }

    static List<Check> of(Run run) {
        return List.of(delayService(run), k6(run), counts(run), machine(run));
    }

    /**
     * k6's count of each closed-model window against the delay service's count of the requests it served
     * ({@link WindowResult#countsAgree}): farther apart than the requests in flight allow, k6's counters lagged.
     */
    static Check counts(Run run) {
        String name = "k6 counted what the downstream served (within the requests in flight)";
        List<WindowResult> judged = run.windows().stream().filter(w -> w.countsAgree() != null).toList();
        if (judged.isEmpty()) {
            return Check.notMeasured(name, "no closed-model window with the delay service's own count");
        }
        List<String> apart = judged.stream().filter(w -> !w.countsAgree())
                .map(w -> run.name(w) + ": " + w.countsDescribed()).toList();
        WindowResult widest = judged.stream().max(java.util.Comparator.comparingDouble(w -> Math.abs(
                w.load().requests() - w.instruments().downstreamServed()) / w.countsMayDiffer())).orElseThrow();
        return Check.of(name, apart.isEmpty(), String.format(Locale.ROOT, "%d of %d windows agree%s",
                judged.size() - apart.size(), judged.size(), apart.isEmpty() ? "; the closest to its bound: "
                        + run.name(widest) + ", " + widest.countsDescribed()
                        : "; APART in " + String.join("; ", apart)));
    }

    /**
     * Each window's yardstick ({@link Yardstick}: the CPU the runner's fixed piece of work took) against the
     * run's fastest window's: a slower machine makes every process's CPU per request dearer, the variant's included.
     */
    static Check machine(Run run) {
        String name = "The machine kept its speed (the runner's fixed piece of work within "
                + Math.round(Yardstick.SLOWER_SHARE * 100) + " % of its fastest window's CPU in every window)";
        List<WindowResult> timed = run.windows().stream().filter(w -> w.instruments().yardstickUs() != null).toList();
        if (timed.isEmpty()) {
            return Check.notMeasured(name, run.windows().isEmpty() ? "no window was measured"
                    : "no window timed the machine (its results are from before the lab did)");
        }
        double fastest = timed.stream().mapToDouble(w -> w.instruments().yardstickUs()).min().orElseThrow();
        List<WindowResult> slower = timed.stream().filter(w -> w.instruments().yardstickUs() > fastest
                        * (1 + Yardstick.SLOWER_SHARE))
                .sorted(java.util.Comparator.comparingDouble((WindowResult w) -> w.instruments().yardstickUs())
                        .reversed()).toList();
        int unread = run.windows().size() - timed.size();
        String detail = String.format(Locale.ROOT, "%d of %d windows within %d %% of the fastest, %.0f CPU-µs a"
                        + " piece%s%s", timed.size() - slower.size(), timed.size(), Math.round(Yardstick.SLOWER_SHARE * 100),
                fastest, slower.isEmpty() ? "" : "; SLOWER in " + slower.stream().limit(MACHINE_NAMED)
                        .map(w -> String.format(Locale.ROOT, "%s %.2f×", run.name(w),
                                w.instruments().yardstickUs() / fastest)).collect(Collectors.joining(", "))
                        + (slower.size() > MACHINE_NAMED ? " and " + (slower.size() - MACHINE_NAMED) + " more" : ""),
                unread == 0 ? "" : "; not timed in " + unread + " windows");
        if (slower.isEmpty() && unread > 0) {
            return Check.notMeasured(name, detail); // never "passed" for windows it could not judge
        }
        return Check.of(name, slower.isEmpty(), detail);
    }

    /** Each delay against what the delay service served in the worst window at it. */
    static Check delayService(Run run) {
        String name = "Delay service had headroom";
        if (run.windows().isEmpty()) {
            return Check.notMeasured(name, "no window was measured");
        }
        boolean kept = true;
        List<String> served = new ArrayList<>();
        for (int delay : run.delays()) {
            double worst = run.windows().stream().filter(w -> run.delay(w) == delay)
                    .mapToDouble(w -> w.instruments().delayServedMeanMs()).filter(d -> !Double.isNaN(d)).max()
                    .orElse(Double.NaN);
            if (Double.isNaN(worst)) {
                continue;
            }
            kept &= worst <= delay * (1 + DELAY_LATE_SHARE) + 1;
            served.add(String.format(Locale.ROOT, "asked for %d ms, served %.1f ms on average in the worst window",
                    delay, worst));
        }
        if (served.isEmpty()) {
            return Check.notMeasured(name, "the delay service served nothing it measured");
        }
        double cpu = run.windows().stream().mapToDouble(w -> w.instruments().delayCpuSeconds() / seconds(w)).max()
                .orElse(0);
        return Check.of(name, kept, String.join("; ", served)
                + String.format(Locale.ROOT, "; it used at most %.2f CPU", cpu));
    }

    /** k6's CPU against what the others left of the run's machine, and its dropped iterations. */
    static Check k6(Run run) {
        String name = "k6 had headroom (at most " + Math.round(Headroom.MOST_SHARE * 100)
                + " % of the CPU left to it)";
        if (run.windows().isEmpty()) {
            return Check.notMeasured(name, "no window was measured");
        }
        if (run.lab().machineCores() <= 0) {
            return Check.notMeasured(name, "the manifest does not say how many CPUs the run's machine had");
        }
        Headroom worst = null;
        double most = 0;
        List<String> shortOf = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        for (WindowResult w : run.windows()) {
            Headroom room = headroom(run, w);
            if (!room.measured()) {
                unread.add(run.name(w));
                continue;
            }
            most = Math.max(most, room.k6Cores());
            if (worst == null || room.share() > worst.share()) {
                worst = room;
            }
            if (!room.enough()) {
                shortOf.add(run.name(w));
            }
        }
        String notRead = unread.isEmpty() ? "" : String.format(Locale.ROOT, "k6's CPU not read in %d of %d windows: %s",
                unread.size(), run.windows().size(), String.join(", ", unread));
        if (worst == null) {
            return Check.notMeasured(name, notRead);
        }
        long dropped = run.windows().stream().filter(w -> w.users() != null)
                .mapToLong(w -> w.load().droppedIterations()).sum();
        String detail = String.format(Locale.ROOT, "k6 used at most %.2f CPU; at worst %s; %d dropped iterations in"
                        + " closed-model windows%s%s", most, worst.describe(), dropped, shortOf.isEmpty() ? ""
                        : "; SHORT in " + shortOf.size() + " windows: " + String.join(", ", shortOf),
                notRead.isEmpty() ? "" : "; " + notRead);
        if (shortOf.isEmpty() && dropped == 0 && !unread.isEmpty()) {
            return Check.notMeasured(name, detail); // never "passed" for windows it could not judge
        }
        return Check.of(name, shortOf.isEmpty() && dropped == 0, detail);
    }

    /**
     * The rule, applied to one window of the run. With the services on another machine, k6 had the run's machine
     * (the manifest's lab, where the runner and k6 ran) to itself.
     */
    static Headroom headroom(Run run, WindowResult w) {
        LoadOrigin origin = LoadOrigin.of(run);
        return w.headroom(origin.loadCores(run.lab().machineCores()), origin.loadAlone());
    }

    private static double seconds(WindowResult w) {
        return Math.max(1e-9, w.load().windowSeconds());
    }
}
