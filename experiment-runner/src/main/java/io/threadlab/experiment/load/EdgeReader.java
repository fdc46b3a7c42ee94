package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.record.DatabaseReading;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.record.Yardstick;
import io.threadlab.experiment.process.ProcessStats;
import io.threadlab.experiment.process.ThreadGroupTimes;
import io.threadlab.experiment.start.LabDatabase;
import io.threadlab.experiment.start.RunningJvm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Reads one edge of a window. The service's own metrics can take seconds to come back when its queue is deep (3,000
 * users behind 200 workers wait 4.6 s for them): they are scraped before the opening edge's timed readings and after
 * the closing edge's, so that the load counters, CPU times and per-second ticks that define the window are read
 * together and on time. Each scrape is saved under metrics/.
 */
final class EdgeReader {

    /** Longest a variant's metrics may take: behind a deliberate queue, seconds. */
    static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(20);

    private final Confinement confinement;
    private final ServiceProcess delayService;
    private final Path metricsDir;
    private final LabDatabase database;
    private final LongFunction<CpuReading> k6Cpu;
    private final Yardstick yardstick;

    /**
     * @param database the lab's PostgreSQL, read at every edge beside the rest; null in a run without it
     * @param k6Cpu    the CPU counters of the k6 with a pid, wherever it runs
     * @param yardstick the machine's own speed, read at every edge
     */
    EdgeReader(Confinement confinement, ServiceProcess delayService, Path metricsDir, LabDatabase database,
               LongFunction<CpuReading> k6Cpu, Yardstick yardstick) {
        this.confinement = confinement;
        this.k6Cpu = k6Cpu;
        this.yardstick = yardstick;
        this.delayService = delayService;
        this.metricsDir = metricsDir;
        this.database = database;
    }

    Edge read(RunningJvm jvm, String snapshot, long k6Pid, Supplier<LoadCounters> load, boolean opening) {
        String early = opening ? scrape(jvm, snapshot) : "";
        LoadCounters counters = load == null ? null : load.get();
        // the downstream's count next, so that k6's count of the window and the downstream's are read close together
        // (WindowResult#countsAgree), and the variant's CPU right after it, as CPU per request divides one by the other
        DelayHeadroom.Counters served = servedCount();
        long nanos = counters == null ? System.nanoTime() : counters.nanos();
        Instant at = Instant.now().minusNanos(System.nanoTime() - nanos);
        CpuReading cpu = confinement.read(jvm.group(), jvm.service().pid());
        CpuReading delayCpu = confinement.read("delay", delayService.pid());
        CpuReading k6 = k6(k6Pid);
        DatabaseReading db = database == null ? null : database.read();
        ProcessStats stats = jvm.service().processStats();
        ThreadGroupTimes threads = jvm.service().threadTimes();
        String metrics = opening ? early : scrape(jvm, snapshot);
        return new Edge(nanos, at, cpu, delayCpu, k6, served, stats, threads, counters, metrics, db,
                yardstick.read());
    }

    /** The variant's CPU counters now, between the edges: per second of a closed-model window. */
    CpuReading cpu(RunningJvm jvm) {
        return confinement.read(jvm.group(), jvm.service().pid());
    }

    /**
     * The downstream's count of the calls it answered: the delay service's (one per request, read at no cost to the
     * variant), or the database's transactions (one per page query, published up to about a second late).
     */
    double served(Downstream downstream) {
        return downstream == Downstream.DB ? database.read().transactions() : servedCount().count();
    }

    /** The delay service's count of calls: one per request, read at no cost to the variant. */
    DelayHeadroom.Counters servedCount() {
        return DelayHeadroom.readNow(delayService);
    }

    /** k6's CPU; nothing while it cannot be read (its group not made yet, or gone). */
    CpuReading k6(long pid) {
        return k6Cpu.apply(pid);
    }

    private String scrape(RunningJvm jvm, String snapshot) {
        String metrics = jvm.service().tryGet("/q/metrics", SCRAPE_TIMEOUT).orElse("");
        if (!metrics.isEmpty()) {
            try {
                Files.writeString(metricsDir.resolve(snapshot + ".prom"), metrics);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return metrics;
    }
}
