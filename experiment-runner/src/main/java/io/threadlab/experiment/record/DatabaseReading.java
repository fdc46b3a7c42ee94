package io.threadlab.experiment.record;

import io.threadlab.experiment.confine.CpuReading;

/**
 * The lab's PostgreSQL at one edge of a window: its group's CPU counters, its transactions so far (cumulative), and
 * the services' connections to it at that instant, open and running a query.
 */
public record DatabaseReading(CpuReading cpu, long transactions, int connections, int active) {
}
