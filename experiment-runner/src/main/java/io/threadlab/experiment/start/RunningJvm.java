package io.threadlab.experiment.start;

import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.record.CompilerActivity;

import java.nio.file.Path;

/**
 * One started JVM of a variant: its process, the cgroup name it runs under, when it was started (for time to peak),
 * and its compiler recording, followed live from the JVM's start to its end (null where the engine cannot follow
 * it). The recording stays on: stopping a recording made the imperative variant deoptimise and recompile for ~25 s
 * under its next load (measured), which a window must not see.
 */
public final class RunningJvm implements AutoCloseable {

    private final Jvm jvm;
    private final ServiceProcess service;
    private final String group;
    private final Path repository;
    private final long startedNanos;
    private CompilerActivity compiler;

    public RunningJvm(Jvm jvm, ServiceProcess service, String group, Path repository, long startedNanos) {
        this.jvm = jvm;
        this.service = service;
        this.group = group;
        this.repository = repository;
        this.startedNanos = startedNanos;
    }

    public Jvm jvm() {
        return jvm;
    }

    public ServiceProcess service() {
        return service;
    }

    public String group() {
        return group;
    }

    public long startedNanos() {
        return startedNanos;
    }

    /** The JVM's compiler, followed from its start; null when there is no recording to follow. */
    public synchronized CompilerActivity compiler() {
        if (compiler == null && repository != null) {
            compiler = CompilerActivity.follow(repository);
        }
        return compiler;
    }

    public String baseUrl() {
        return service.uri("").toString();
    }

    /** Stops following the recording and the JVM. */
    @Override
    public synchronized void close() {
        if (compiler != null) {
            compiler.close();
        }
        service.close();
    }
}
