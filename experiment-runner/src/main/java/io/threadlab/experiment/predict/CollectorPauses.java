package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The collector's pauses as the calibration saw them, and what they take from the ceilings a slot sets (workers,
 * connections, the database pool, the users): a pause stops every thread, so a worker or a connection held across it
 * is held that much longer, while nothing completes. The share of time paused grows with the throughput (the
 * collections follow the allocation, which follows the requests): a line through the origin, fitted to the levels'
 * shares. At a slot ceiling C the throughput then solves x = C × (1 − k·x), so x = C ÷ (1 + k·C). The CPU ceiling
 * needs none of it: the collector's CPU is in the CPU a request was measured to cost.
 *
 * <p>Seen where it matters: held out at 100 ms × 1,000 and 2,000 users, the imperative variant's 200 workers served
 * 1,855 and 1,832 req/s against 1,960 predicted without pauses, with the JVM paused 4.8 % and 9.0 % of those windows
 * (heldout-2); its calibration (default-2) paused 3 % at 822 req/s and 9–15 % at 2,600–3,100.
 */
record CollectorPauses(double sharePerRps, SurvivorSpace survivors) {

    static final CollectorPauses NONE = new CollectorPauses(0, SurvivorSpace.NONE);
    /** A ceiling lowered by less than this is said without a note. */
    private static final double WORTH_A_NOTE = 0.01;

    /**
     * Fitted to the levels whose pauses the variant's metrics gave (none where no level has them), with the survivor
     * space as the calibration's windows read it ({@link SurvivorSpace}).
     */
    static CollectorPauses fit(List<Level> levels, List<WindowResult> calibration) {
        double sxy = 0;
        double sxx = 0;
        for (Level l : levels) {
            if (Double.isFinite(l.pausedShare()) && l.rps() > 0) {
                sxy += l.pausedShare() * l.rps();
                sxx += l.rps() * l.rps();
            }
        }
        return new CollectorPauses(sxx == 0 ? 0 : Math.max(0, sxy / sxx), SurvivorSpace.fit(calibration));
    }

    /** The throughput a slot ceiling allows once the pauses at that throughput are taken out. */
    double slotCeiling(double withoutPauses) {
        return withoutPauses / (1 + sharePerRps * withoutPauses);
    }

    /** The share of time paused at {@code rps}. */
    double shareAt(double rps) {
        return sharePerRps * rps;
    }

    /** Each slot ceiling of {@code ceilings} lowered by the pauses; a note where the binding one moved. */
    void apply(Map<Ceiling, Double> ceilings, List<String> notes) {
        for (Ceiling c : List.of(Ceiling.WORKERS, Ceiling.CONNECTIONS, Ceiling.DB_POOL, Ceiling.USERS)) {
            ceilings.computeIfPresent(c, (ceiling, rps) -> slotCeiling(rps));
        }
        ceilings.entrySet().stream().min(Map.Entry.comparingByValue())
                .filter(e -> e.getKey() != Ceiling.CPU && e.getKey() != Ceiling.DB_CPU && e.getKey() != Ceiling.LOAD)
                .filter(e -> shareAt(e.getValue()) >= WORTH_A_NOTE)
                .ifPresent(e -> notes.add(String.format(Locale.ROOT, "the collector pauses the JVM about %.1f %% of"
                                + " the time at %,.0f req/s (the calibration's pauses, a line in the throughput): the"
                                + " %s are held through them, and the ceiling is that much lower",
                        shareAt(e.getValue()) * 100, e.getValue(), e.getKey().label())));
    }
}
