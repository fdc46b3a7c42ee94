package io.threadlab.experiment.analyse;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.WindowId;

import java.util.Locale;

/**
 * The recorded window's calls to the delay service per request, and whether they ran at once or in turn: from its
 * results.json row ({@code at.fan_out}, {@code at.fan_out_mode}), else the runner's name for it ({@code -fan8},
 * {@code -sequential}), else one call. Every count the verdicts expect per request is per call times this.
 */
public record WindowFanOut(int calls, FanOutMode mode) {

    public static final WindowFanOut ONE = new WindowFanOut(1, FanOutMode.PARALLEL);

    static WindowFanOut of(Integer fromRow, String modeFromRow, String window) {
        if (fromRow != null) {
            return new WindowFanOut(fromRow, modeFromRow == null ? FanOutMode.PARALLEL : FanOutMode.parse(modeFromRow));
        }
        return WindowId.parse(window).filter(id -> id.at().has(Axis.FAN_OUT)).map(id -> new WindowFanOut(
                id.at().get(Axis.FAN_OUT), id.at().getOrFallback(Axis.FAN_OUT_MODE))).orElse(ONE);
    }

    public boolean parallel() {
        return calls > 1 && mode == FanOutMode.PARALLEL;
    }

    /** "8 calls per request in parallel", for the verdicts. */
    String describe() {
        return String.format(Locale.ROOT, "%d calls to the delay service per request%s", calls,
                calls == 1 ? "" : parallel() ? " in parallel" : ", one after another");
    }
}
