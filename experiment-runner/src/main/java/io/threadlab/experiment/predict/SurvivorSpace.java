package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;

import java.util.List;
import java.util.Locale;

/**
 * Whether the requests alive beyond the most users a calibration had will overflow the collector's survivor space: the
 * state the calibration could not see. A young collection copies what is alive in the young generation into a
 * survivor space, and every user's request in flight keeps its objects alive, whether it waits for the CPU or at the
 * downstream, so what the survivor space holds after a collection grows with the users. Where it no longer fits, each
 * collection promotes what it cannot keep to the old generation (at 300 ms and 3,000 users on 512 MB, 13-26 MB/s where
 * no calibration level had promoted 1 MB/s).
 *
 * <p>The survivors a user keeps are read at the calibration's most users, what the survivor space held at those
 * windows' ends over their users: the windows at fewer users keep more a user (a part that does not grow with them),
 * and a line through every window carried that past 2,000 users, calling overflow at 100 and 300 ms where none came
 * (survivors-300ms-512m, survivors-delay-512m). So read, it called the overflow at 100 ms × 2,500 and 3,000 users
 * before they were measured (survivors-100ms-512m: every window promoted). A full survivor space alone is not yet
 * overflowing: at 1,000 ms × 2,000 users it was full at every window's end and 0.2 MB/s at most was promoted. Nor is
 * the call a guide from a calibration that came close to the overflow: one that went on to 2,500 users at 100 ms kept
 * 4.7-5.8 KB a user there, not the 8.2-8.5 of its 1,000 users, and called nothing at 3,000, where every window then
 * promoted (calibrated-2500-512m).
 *
 * <p>What the state costs a request is not in the forecast. The copying the calibration saw grow, added to the cost
 * where it overflows, made the held-out forecasts at 100 ms worse (within 15 % in 3 of 7 windows of
 * survivors-100ms-512m against 6 of 7 without), though better at 300 ms: the forecast says the state in a note.
 *
 * @param mbPerUser the survivors a user kept at the calibration's most users, in MB (NaN where not read)
 * @param sizeMb    the survivor space's size (NaN where not read)
 * @param mostUsers the most users the calibration had
 * @param promoting whether a calibration window promoted {@link #PROMOTING_MB_PER_S} or more: the state is its already
 */
public record SurvivorSpace(double mbPerUser, double sizeMb, int mostUsers, boolean promoting) {

    public static final SurvivorSpace NONE = new SurvivorSpace(Double.NaN, Double.NaN, 0, false);
    /** A window whose young collections promoted this much a second or more was in the promoting state. */
    public static final double PROMOTING_MB_PER_S = 1;

    /**
     * Read from the calibration windows at one call per request whose users were kept busy and whose survivor space the
     * variant's metrics gave; none where a window did not give it.
     */
    public static SurvivorSpace fit(List<WindowResult> calibration) {
        List<WindowResult> counted = calibration.stream().filter(w -> w.users() != null && w.gc() != null
                && w.load().requests() > 0 && Level.calls(w) == 1 && Level.keptBusy(w)).toList();
        if (counted.isEmpty() || counted.stream().anyMatch(w -> w.gc().survivorMb() == null
                || w.gc().survivorMaxMb() == null)) {
            return NONE;
        }
        int most = counted.stream().mapToInt(WindowResult::users).max().orElseThrow();
        double perUser = counted.stream().filter(w -> w.users() == most)
                .mapToDouble(w -> w.gc().survivorMb() / w.users()).average().orElseThrow();
        double size = counted.stream().mapToDouble(w -> w.gc().survivorMaxMb()).min().orElseThrow();
        boolean promoting = counted.stream().anyMatch(SurvivorSpace::promoted);
        return new SurvivorSpace(perUser, size, most, promoting);
    }

    /**
     * Whether at {@code users}, beyond the calibrated ones, the survivors would overflow a survivor space no
     * calibration window overflowed.
     */
    public boolean overflowsAt(int users) {
        return users > mostUsers && !promoting && mbPerUser * users > sizeMb;
    }

    /** Whether a window's young collections promoted {@link #PROMOTING_MB_PER_S} or more (false where not read). */
    public static boolean promoted(WindowResult w) {
        Double mbs = w.gc() == null ? null : w.gc().promotedMbPerSecond(w.load().windowSeconds());
        return mbs != null && mbs >= PROMOTING_MB_PER_S;
    }

    /** Whether the calibration read the survivor space at all: where it did not, nothing is called. */
    public boolean read() {
        return !Double.isNaN(sizeMb);
    }

    /** Says so where {@link #overflowsAt} the point's users. */
    void note(int users, List<String> notes) {
        if (overflowsAt(users)) {
            notes.add(String.format(Locale.ROOT, "beyond the %,d users calibrated, the requests alive would overflow"
                    + " the collector's survivor space (%.1f KB a user at %,d users: %.0f MB at %,d, of %.1f MB): its"
                    + " young collections will promote, a state no calibration window was in, whose cost the forecast"
                    + " does not know", mostUsers, mbPerUser * 1000, mostUsers, mbPerUser * users, users, sizeMb));
        }
    }
}
