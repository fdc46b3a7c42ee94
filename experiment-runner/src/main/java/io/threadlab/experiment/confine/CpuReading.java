package io.threadlab.experiment.confine;

/** Cumulative CPU counters of one confined process group; subtract two readings to get a window's share. */
public record CpuReading(long usageNanos, long periods, long throttledPeriods, long throttledNanos) {

    public static final CpuReading NONE = new CpuReading(0, 0, 0, 0);

    /** Whether this is a reading at all: {@link #NONE} stands for counters that could not be read. */
    public boolean known() {
        return !equals(NONE);
    }

    public CpuReading minus(CpuReading earlier) {
        return new CpuReading(usageNanos - earlier.usageNanos, periods - earlier.periods,
                throttledPeriods - earlier.throttledPeriods, throttledNanos - earlier.throttledNanos);
    }

    public double cpuSeconds() {
        return usageNanos / 1e9;
    }

    /** From a cgroup v2 {@code cpu.stat} (microseconds). */
    static CpuReading fromCgroupV2(String cpuStat) {
        var stat = GroupFiles.keyValues(cpuStat);
        return new CpuReading(stat.getOrDefault("usage_usec", 0L) * 1000, stat.getOrDefault("nr_periods", 0L),
                stat.getOrDefault("nr_throttled", 0L), stat.getOrDefault("throttled_usec", 0L) * 1000);
    }

    /** From cgroup v1's {@code cpuacct.usage} (nanoseconds) and the cpu controller's {@code cpu.stat}. */
    static CpuReading fromCgroupV1(String cpuacctUsage, String cpuStat) {
        var stat = GroupFiles.keyValues(cpuStat);
        return new CpuReading(Long.parseLong(cpuacctUsage.trim()), stat.getOrDefault("nr_periods", 0L),
                stat.getOrDefault("nr_throttled", 0L), stat.getOrDefault("throttled_time", 0L));
    }
}
