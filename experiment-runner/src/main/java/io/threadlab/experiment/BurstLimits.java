package io.threadlab.experiment;

import com.sun.management.UnixOperatingSystemMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * This machine's limits on a burst, checked before anything starts: each request of a burst is a connection of its own
 * at once, an open file in k6 and in the variant, and a source port of the loopback's ephemeral range. k6 and the
 * services inherit the runner's open-files limit ({@code ulimit -n}); the variant holds its client's pool to the
 * delay service beside the burst's connections.
 */
final class BurstLimits {

    /** Files a JVM holds besides its connections: its jars, its recording, its sockets to the runner. */
    static final int RESERVE = 1000;

    private BurstLimits() {
    }

    /** Refuses a burst of {@code requests} that this machine's limits cannot hold, saying which and by how much. */
    static void require(int requests, int poolSize) {
        require(requests, poolSize, openFilesLimit(), ephemeralPorts(Path.of("/proc/sys/net/ipv4/ip_local_port_range")));
    }

    /** @param openFiles the open-files limit (0: unknown); @param ports the ephemeral ports (0: unknown) */
    static void require(int requests, int poolSize, long openFiles, long ports) {
        long need = (long) requests + poolSize + RESERVE;
        if (openFiles > 0 && need > openFiles) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--requests %,d: each request is a"
                    + " connection of its own at once, an open file in k6 and in the variant, which also holds its pool"
                    + " of %,d to the delay service and about %,d files of its own; the open-files limit here is %,d"
                    + " (ulimit -n), so a burst of at most %,d", requests, poolSize, RESERVE, openFiles,
                    Math.max(0, openFiles - poolSize - RESERVE)));
        }
        if (ports > 0 && need > ports) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--requests %,d: each request takes a source"
                    + " port of the loopback's ephemeral range at once, beside the pool of %,d to the delay service;"
                    + " the range here has %,d ports (/proc/sys/net/ipv4/ip_local_port_range), so a burst of at most"
                    + " %,d", requests, poolSize, ports, Math.max(0, ports - poolSize - RESERVE)));
        }
    }

    /** This process's open-files limit, which the k6 and the services it starts inherit; 0 where unknown. */
    static long openFilesLimit() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                ? unix.getMaxFileDescriptorCount() : 0;
    }

    /** The ports of the ephemeral range ("32768 60999": 28,232); 0 where unreadable. */
    static long ephemeralPorts(Path range) {
        try {
            // readAllLines, not readString: a file of /proc says it has no size, and readString read one byte of it
            String[] bounds = String.join(" ", Files.readAllLines(range)).trim().split("\\s+");
            return Long.parseLong(bounds[1]) - Long.parseLong(bounds[0]) + 1;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
