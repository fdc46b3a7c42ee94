package io.threadlab.api;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Makes the variants' metrics comparable: same histograms, same client name, and JIT activity. */
@Singleton
public class MetricsConfig {

    /** Percentile histograms on the HTTP timers, so p50/p99 of any window can be computed from two scrapes. */
    @Produces
    @Singleton
    MeterFilter httpHistograms() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (id.getName().startsWith("http.")) {
                    return DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config);
                }
                return config;
            }
        };
    }

    /**
     * The classic client tags its request timer {@code clientName="127.0.0.1"}, the reactive one {@code "delay"}. Each
     * variant has exactly one client, the delay service, so one name makes the three comparable. Only that timer:
     * renaming every meter would merge gauges that must stay apart.
     */
    @Produces
    @Singleton
    MeterFilter oneClientName() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                return id.getName().equals("http.client.requests") && id.getTag("clientName") != null
                        ? id.replaceTags(Tags.of(id.getTags()).and("clientName", "delay")) : id;
            }
        };
    }

    /**
     * JIT compilation time ({@code jvm_compilation_time_ms_total}). Under a 0.5-CPU quota the compiler competes with
     * requests for the same CPU, and a JVM is only warm once it has gone quiet: the runner's warm-up waits for that.
     */
    @Produces
    @Singleton
    MeterBinder jitActivity() {
        return new JvmCompilationMetrics();
    }
}
