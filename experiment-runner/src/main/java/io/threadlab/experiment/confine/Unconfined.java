package io.threadlab.experiment.confine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

/**
 * No way to limit CPU on this machine: processes run as they are, and CPU is read from /proc (user + system time of
 * the process). The run says so loudly in the console, the manifest and the report.
 */
final class Unconfined implements Confinement {

    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

    private final String reason;

    Unconfined(String reason) {
        this.reason = reason;
    }

    String reason() {
        return reason;
    }

    @Override
    public String method() {
        return "none";
    }

    @Override
    public boolean limits() {
        return false;
    }

    @Override
    public List<String> wrap(String name, OptionalDouble cpus, List<String> command) {
        return command;
    }

    @Override
    public void setQuota(String name, long pid, double cpus) {
        // nothing limits an unconfined process, so there is nothing to raise
    }

    @Override
    public CpuReading read(String name, long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
            return new CpuReading(Math.round(ticks / TICKS_PER_SECOND * 1e9), 0, 0, 0);
        } catch (IOException | RuntimeException e) {
            return CpuReading.NONE;
        }
    }

    @Override
    public void removeAll() {
    }
}
