package io.threadlab.experiment.collect;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One warm-up sample: throughput and the JIT compiler's state over the last sample period. Queue lengths are -1 where
 * the JVM's compiler recording cannot be followed (containers); the compiler threads' CPU and run-queue wait come from
 * /proc and are always there.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CompilerSample(double elapsedSeconds, double cpus, int users, double requestsPerSecond, long c1Queue,
                             long c2Queue, long compilations, long codeBytes, double compilerCpuMsPerSecond,
                             double compilerWaitMsPerSecond) {

    public boolean queueKnown() {
        return c2Queue >= 0;
    }
}
