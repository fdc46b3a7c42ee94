package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The collector's pauses as the calibration saw them, and what they take from the ceilings a slot sets (workers,
 * connections, the database pool, the users): a pause stops every thread, so a worker or a connection held across it
 * is held that much longer, while nothing completes. The collections follow the allocation, which follows the
 * requests, and each young collection copies what the requests alive keep: the time paused a request served grows
 * with the users (every user keeps one request alive, waiting for the CPU or at the downstream), a power of them
 * fitted to the levels' pauses (a line in logarithms), and the share of time paused at a throughput x is x times it.
 * At a slot ceiling C the throughput then solves x = C × (1 − s·x), so x = C ÷ (1 + s·C). The CPU ceiling needs none
 * of it: the collector's CPU is in the CPU a request was measured to cost.
 *
 * <p>Seen where it matters: held out at 100 ms × 1,000 and 2,000 users, the imperative variant's 200 workers served
 * 1,855 and 1,832 req/s against 1,960 predicted without pauses, with the JVM paused 4.8 % and 9.0 % of those windows
 * (heldout-2); its calibration (default-2) paused 3 % at 822 req/s and 9–15 % at 2,600–3,100. And where the users go
 * beyond the calibration's: in the published runs the young collections came about as often a request at 3,000 users
 * as at 300 (a sixth of one per thousand requests on a 512 MB heap), but each paused 3-14 ms at 150-400 users, 10-50 ms
 * at 700-1,000 and 120-290 ms at 3,000. Taken as a line in the throughput alone, as the model did before, default-16's
 * calibration gave the event loop about 0.5 % of heldout-24's window at 1,000 ms × 3,000 users, paused 7.7 %; as a
 * power of the users, 3.6 %. Beyond the calibrated users the pauses are carried by that power, as unsure as they are
 * large: a slot ceiling's error takes in their share there ({@link #beyond}).
 *
 * @param perRequest the seconds paused a request served at one user (the power's factor; 0 where nothing paused)
 * @param growth     the power of the users (0 where the levels paused at fewer than two numbers of users)
 * @param mostUsers  the most users of a level whose pauses were read
 * @param survivors  the survivor space as the calibration's windows read it ({@link SurvivorSpace})
 */
record CollectorPauses(double perRequest, double growth, int mostUsers, SurvivorSpace survivors) {

    static final CollectorPauses NONE = new CollectorPauses(0, 0, 0, SurvivorSpace.NONE);
    /** The ceilings a slot sets: each held through every pause. */
    private static final List<Ceiling> SLOTS = List.of(Ceiling.WORKERS, Ceiling.CONNECTIONS, Ceiling.DB_POOL,
            Ceiling.USERS);
    /** A ceiling lowered by less than this is said without a note. */
    private static final double WORTH_A_NOTE = 0.01;
    /**
     * The power is kept between none (more requests alive do not make a collection shorter) and this: a calibration's
     * levels scatter, and two close numbers of users could carry a steep line far.
     */
    private static final double MOST_GROWTH = 2;

    /**
     * Fitted to the levels whose pauses the variant's metrics gave and that paused (none where no level did), with the
     * survivor space as the calibration's windows read it ({@link SurvivorSpace}).
     */
    static CollectorPauses fit(List<Level> levels, List<WindowResult> calibration) {
        List<Level> paused = levels.stream().filter(l -> Double.isFinite(l.pausedShare()) && l.pausedShare() > 0
                && l.rps() > 0).toList();
        SurvivorSpace survivors = SurvivorSpace.fit(calibration);
        if (paused.isEmpty()) {
            return new CollectorPauses(0, 0, 0, survivors);
        }
        List<double[]> logs = paused.stream().map(l -> new double[] {Math.log(l.users()),
                Math.log(l.pausedShare() / l.rps())}).toList();
        double[] line = Line.fit(logs);
        double growth = Double.isNaN(line[0]) ? 0 : Math.clamp(line[0], 0, MOST_GROWTH);
        // through the levels' mean in logarithms, at the power kept
        double meanX = logs.stream().mapToDouble(p -> p[0]).average().orElseThrow();
        double meanY = logs.stream().mapToDouble(p -> p[1]).average().orElseThrow();
        return new CollectorPauses(Math.exp(meanY - growth * meanX), growth,
                paused.stream().mapToInt(Level::users).max().orElseThrow(), survivors);
    }

    /** The seconds paused a request served at {@code users}. */
    double perRequestAt(int users) {
        return perRequest * Math.pow(users, growth);
    }

    /** The throughput a slot ceiling allows at {@code users} once the pauses at that throughput are taken out. */
    double slotCeiling(double withoutPauses, int users) {
        return withoutPauses / (1 + perRequestAt(users) * withoutPauses);
    }

    /** The share of time paused at {@code rps} and {@code users}. */
    double shareAt(double rps, int users) {
        return perRequestAt(users) * rps;
    }

    /**
     * What {@code ceiling} at {@code rps} adds to its error for the pauses: where it is a slot's and {@code users} lie
     * beyond the most whose pauses were read (carried there by the power alone), their share there; none otherwise.
     */
    double beyond(Ceiling ceiling, double rps, int users) {
        return SLOTS.contains(ceiling) && users > mostUsers ? shareAt(rps, users) : 0;
    }

    /** Each slot ceiling lowered by the pauses at {@code users}; a note where the binding one moved. */
    void apply(Map<Ceiling, Double> ceilings, int users, List<String> notes) {
        for (Ceiling c : SLOTS) {
            ceilings.computeIfPresent(c, (ceiling, rps) -> slotCeiling(rps, users));
        }
        ceilings.entrySet().stream().min(Map.Entry.comparingByValue())
                .filter(e -> SLOTS.contains(e.getKey()))
                .filter(e -> shareAt(e.getValue(), users) >= WORTH_A_NOTE)
                .ifPresent(e -> notes.add(String.format(Locale.ROOT, "the collector pauses the JVM about %.1f %% of"
                                + " the time at %,.0f req/s and %,d users (the calibration's pauses a request, growing"
                                + " as the users to the power %.2f: more requests alive, more for each collection to"
                                + " copy%s): the %s are held through them, and the ceiling is that much lower",
                        shareAt(e.getValue(), users) * 100, e.getValue(), users, growth, users > mostUsers
                                ? String.format(Locale.ROOT, "; beyond the %,d users it read them at, its error takes"
                                + " them in", mostUsers) : "", e.getKey().label())));
    }
}
