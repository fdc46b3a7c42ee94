package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.record.DatabaseReading;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.record.Yardstick;
import io.threadlab.experiment.process.ProcessStats;
import io.threadlab.experiment.process.ThreadGroupTimes;

import java.time.Instant;

/**
 * Readings taken together at one edge of a measured interval. Requests are counted by the delay service (one call per
 * request) for CPU per request: it costs the variant nothing and works even when the variant is too busy to answer
 * its own metrics.
 *
 * @param nanos       when the edge was read ({@link System#nanoTime()}): the load's reading where there is one
 * @param load        k6's counters (closed model; null for the open model)
 * @param metrics     the variant's own Prometheus text, or empty when it did not answer in time
 * @param database    the lab's PostgreSQL, in a run that has it; else null
 * @param yardstick   the machine's own speed so far (the runner's fixed piece of work)
 */
public record Edge(long nanos, Instant at, CpuReading cpu, CpuReading delayCpu, CpuReading k6,
                   DelayHeadroom.Counters delayServed, ProcessStats stats, ThreadGroupTimes threads,
                   LoadCounters load, String metrics, DatabaseReading database,
                   Yardstick.Reading yardstick) {

    /** The downstream's count of the calls it answered so far: the delay service's, or the database's queries. */
    double served(Downstream downstream) {
        return downstream == Downstream.DB ? database.transactions() : delayServed.count();
    }

    Edge withK6(CpuReading reading) {
        return new Edge(nanos, at, cpu, delayCpu, reading, delayServed, stats, threads, load, metrics, database,
                yardstick);
    }
}
