package io.threadlab.experiment.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Resident memory and OS thread count of a process, from {@code /proc/<pid>/status}. */
public record ProcessStats(double rssMb, int threads) {

    public static ProcessStats of(long pid) {
        return parse(read(Path.of("/proc", String.valueOf(pid), "status")));
    }

    static ProcessStats parse(String status) {
        double rssKb = 0;
        int threads = 0;
        for (String line : status.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (line.startsWith("VmRSS:") && f.length >= 2) {
                rssKb = Double.parseDouble(f[1]);
            } else if (line.startsWith("Threads:") && f.length >= 2) {
                threads = Integer.parseInt(f[1]);
            }
        }
        return new ProcessStats(rssKb / 1024.0, threads);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
