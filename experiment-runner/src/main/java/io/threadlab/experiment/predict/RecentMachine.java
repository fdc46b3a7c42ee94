package io.threadlab.experiment.predict;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * The machine's speed a forecast is made for: the median of the runner's fixed piece of work over the last
 * {@value #WINDOWS} windows measured before the point (fewer at a run's start; null before the first). One window's
 * reading is a poor guess of the next's: in the published runs it missed the next window's by a median of 5.9 %, the
 * median of the last five by 5.5 %, and no guess from the past did better than that; a run on a machine slower than
 * its calibration's throughout (heldout-4: 21 %) is what it catches.
 */
public final class RecentMachine {

    static final int WINDOWS = 5;

    private final Deque<Double> last = new ArrayDeque<>();

    /** A window's speed, as measured (null: not timed, and not counted). */
    public void measured(Double yardstickUs) {
        if (yardstickUs == null) {
            return;
        }
        last.addLast(yardstickUs);
        if (last.size() > WINDOWS) {
            last.removeFirst();
        }
    }

    /** The speed the next forecast is for: the median of the windows kept, null where none was timed. */
    public Double speed() {
        return last.isEmpty() ? null : median(last.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The median of some speeds; NaN of none. */
    static double median(double[] speeds) {
        double[] sorted = speeds.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
