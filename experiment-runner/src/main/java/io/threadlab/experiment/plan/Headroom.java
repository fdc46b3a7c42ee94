package io.threadlab.experiment.plan;

import java.util.Locale;

/**
 * Whether the load generator had room to drive the point, the one rule the runner warns by and the report checks by:
 * k6 may use at most {@link #MOST_SHARE} of the CPU the others left it. Left to it: with the load on a CPU of its own
 * ({@code --load-cpus separate}), that CPU less the delay service's share; shared, the machine's CPUs (the run's
 * machine, from its manifest, never the one reading the report) less what the variant and the delay service used.
 *
 * @param k6Cores   what k6 used, in CPUs
 * @param roomCores what was left to it, in CPUs
 */
public record Headroom(double k6Cores, double roomCores) {

    /** Above this share of its room, k6 may itself cap the point: latency then includes k6 waiting for a CPU. */
    public static final double MOST_SHARE = 0.8;

    /**
     * @param machineCores the CPUs of the machine the load ran on
     * @param dbCores      what the lab's PostgreSQL used (0 without it): it runs on any CPU, so it takes from a
     *                     shared load's room only (a separate load's CPU is the load's and the delay service's)
     */
    public static Headroom of(double k6Cores, double machineCores, double variantCores, double delayCores,
                              double dbCores, boolean separate) {
        return new Headroom(k6Cores, separate ? 1 - delayCores : machineCores - variantCores - delayCores - dbCores);
    }

    /**
     * k6 on a machine of its own, the services on another engine or a cluster: all that machine's CPUs were its
     * room, whatever the services used elsewhere.
     */
    public static Headroom alone(double k6Cores, double machineCores) {
        return new Headroom(k6Cores, machineCores);
    }

    /** Whether k6's CPU was read in the window at all (NaN where it was not). */
    public boolean measured() {
        return !Double.isNaN(k6Cores);
    }

    public double share() {
        return roomCores > 0 ? k6Cores / roomCores : Double.POSITIVE_INFINITY;
    }

    /** Measured, and within the rule: a window whose k6 was not read never counts as having had room. */
    public boolean enough() {
        return measured() && share() <= MOST_SHARE;
    }

    /** Measured, and past the rule: k6 competed with the JVM for the machine. */
    public boolean crowded() {
        return measured() && !enough();
    }

    public String describe() {
        return measured() ? String.format(Locale.ROOT, "k6 used %.2f CPU of the %.2f left to it (%.0f %%)", k6Cores,
                roomCores, share() * 100) : "k6's CPU was not read: its headroom is not measured";
    }
}
