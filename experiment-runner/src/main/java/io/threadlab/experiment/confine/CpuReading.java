package io.threadlab.experiment.confine;

/** Cumulative CPU counters of one confined process group; subtract two readings to get a window's share. */
public record CpuReading(long usageNanos, long periods, long throttledPeriods, long throttledNanos) {

    public static final CpuReading NONE = new CpuReading(0, 0, 0, 0);

    public CpuReading minus(CpuReading earlier) {
        return new CpuReading(usageNanos - earlier.usageNanos, periods - earlier.periods,
                throttledPeriods - earlier.throttledPeriods, throttledNanos - earlier.throttledNanos);
    }

    public double cpuSeconds() {
        return usageNanos / 1e9;
    }
}
