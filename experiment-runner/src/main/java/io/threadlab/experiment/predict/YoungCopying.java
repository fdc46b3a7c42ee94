package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;

import java.util.List;
import java.util.Locale;

/**
 * What the young collections cost a request beyond the most users a calibration had, once the requests alive no longer
 * fit the survivor space. A young collection copies what is alive in the young generation into a survivor space, and
 * every user's request in flight keeps its objects alive, whether it waits for the CPU or at the downstream: what the
 * survivor space holds after a collection grows with the users (6-11 KB a user in far-heap-512m's and far-heap-2g's
 * calibrations). While it fits, the pause grows with it, and the CPU curve, held flat beyond its busiest level, has
 * been right all the same: forecasts at 2,000 users from calibrations up to 1,000, where nothing was promoted, were
 * measured a mean 4 % above (the rest of a request's cost fell as fast). Once it overflows, each collection promotes
 * what it cannot keep to the old generation: at 300 ms and 3,000 users on 512 MB, whose 17.9 MB survivor space the
 * requests filled, 10-19 MB/s were promoted and the event loop's and the virtual threads' forecasts were 7-25 % high;
 * on 2 GB (71.6 MB, 19-37 MB held) nothing was promoted. A line in the users for every point beyond the calibration,
 * overflowing or not, made the forecasts at 2,000 users worse (within 15 % of 60 of 73 to 54).
 *
 * <p>So beyond the calibrated users, where the calibration promoted nothing and the survivors the point's users keep
 * (what the survivor space held a user at the end of the windows at its most users) overflow the survivor space, a
 * request costs {@code c × b × (users − most calibrated)} more: {@code c} the calibration's young collections
 * per request, {@code b} the growth of a collection's pause per user, a line in the users through its windows' pauses
 * per collection, each weighted by its collections, never negative. It is the copying the calibration saw grow, not
 * the promotion, which no calibration level did: a floor of what overflowing costs. A calibration that promoted has
 * the state in its cost already; one whose windows did not read the survivor space says nothing.
 *
 * @param perRequest        the calibration's young collections per request served
 * @param msPerUser         what one more user adds to a young collection's pause, in ms
 * @param mostUsers         the most users the calibration had: the term starts there
 * @param survivorMbPerUser what the survivor space held a user at the end of the calibration's windows at its most
 *                          users, in MB
 * @param survivorMaxMb     the survivor space's size (NaN where not read)
 * @param promoting         whether a calibration window promoted {@link #PROMOTING_MB_PER_S} or more
 */
record YoungCopying(double perRequest, double msPerUser, int mostUsers, double survivorMbPerUser,
                    double survivorMaxMb, boolean promoting) {

    static final YoungCopying NONE = new YoungCopying(0, 0, 0, 0, Double.NaN, false);
    /** A window whose young collections promoted this much a second or more was in the promoting state. */
    static final double PROMOTING_MB_PER_S = 1;
    /** A term under this share of a request's cost goes without a note. */
    private static final double WORTH_A_NOTE = 0.01;

    /**
     * Fitted to the calibration windows whose young collections the variant's metrics counted, at one call per request
     * and their users kept busy; none where fewer than two numbers of users had a collection.
     */
    static YoungCopying fit(List<WindowResult> calibration, int mostUsers) {
        List<WindowResult> counted = calibration.stream().filter(w -> w.users() != null && w.gc() != null
                && w.load().requests() > 0 && Level.calls(w) == 1 && Level.keptBusy(w)).toList();
        List<WindowResult> collected = counted.stream().filter(w -> w.gc().minorCollections() > 0).toList();
        if (collected.stream().map(WindowResult::users).distinct().count() < 2) {
            return NONE;
        }
        double weight = collected.stream().mapToDouble(w -> w.gc().minorCollections()).sum();
        double meanUsers = collected.stream().mapToDouble(w -> w.gc().minorCollections() * w.users()).sum() / weight;
        double meanMs = collected.stream().mapToDouble(w -> w.gc().minorPauseSeconds() * 1000).sum() / weight;
        double sxx = 0;
        double sxy = 0;
        for (WindowResult w : collected) {
            double n = w.gc().minorCollections();
            sxx += n * Math.pow(w.users() - meanUsers, 2);
            sxy += n * (w.users() - meanUsers) * (w.gc().minorPauseSeconds() * 1000 / n - meanMs);
        }
        double requests = counted.stream().mapToDouble(w -> w.load().requests()).sum();
        List<WindowResult> read = counted.stream().filter(w -> w.gc().survivorMb() != null).toList();
        // read at the most users, nearest the points beyond them: fewer users keep more a user (a part that does not
        // grow with them), and a line through every level carried that past 2,000 users (survivors-300ms-512m)
        int most = read.stream().mapToInt(WindowResult::users).max().orElse(0);
        double perUser = read.stream().filter(w -> w.users() == most)
                .mapToDouble(w -> w.gc().survivorMb() / w.users()).average().orElse(Double.NaN);
        double size = read.size() < counted.size() || read.stream().anyMatch(w -> w.gc().survivorMaxMb() == null)
                ? Double.NaN : read.stream().mapToDouble(w -> w.gc().survivorMaxMb()).min().orElse(Double.NaN);
        boolean promoting = counted.stream().map(w -> w.gc().promotedMbPerSecond(w.load().windowSeconds()))
                .anyMatch(mbs -> mbs != null && mbs >= PROMOTING_MB_PER_S);
        return new YoungCopying(weight / requests, Math.max(0, sxy / sxx), mostUsers, perUser, size, promoting);
    }

    /** Whether the survivors {@code users} keep overflow the survivor space (false where its size was not read). */
    boolean overflows(int users) {
        return survivorMbPerUser * users > survivorMaxMb;
    }

    /**
     * The CPU-ms a request costs more at {@code users} than the curve says: nothing within the calibrated users, from
     * a calibration that promoted, or where the survivors fit.
     */
    double cpuMsAt(int users) {
        return users <= mostUsers || promoting || !overflows(users) ? 0
                : perRequest * msPerUser * (users - mostUsers);
    }

    /** Says what the term adds at {@code users}, where it is worth a note beside a request's {@code cpuMs}. */
    void note(int users, double addedMs, double cpuMs, List<String> notes) {
        if (addedMs >= WORTH_A_NOTE * cpuMs) {
            notes.add(String.format(Locale.ROOT, "beyond the %,d users calibrated, the requests alive overflow the"
                    + " survivor space (%.1f KB a user, %.0f MB at %,d users, of %.1f MB): each young collection"
                    + " promotes what it cannot keep, and copies what more requests keep alive, at least +%.3f CPU-ms"
                    + " a request (%.2f collections per 1,000 requests, each paused %.1f µs more per user, a line"
                    + " through the calibration's)", mostUsers, survivorMbPerUser * 1000, survivorMbPerUser * users,
                    users, survivorMaxMb, addedMs, perRequest * 1000, msPerUser * 1000));
        }
    }
}
