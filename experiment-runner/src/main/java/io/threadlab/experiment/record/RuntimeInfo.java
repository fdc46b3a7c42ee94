package io.threadlab.experiment.record;

import com.fasterxml.jackson.core.type.TypeReference;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.process.ServiceProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a variant's JVM sized itself to ({@code GET /lab/runtime}). Read before and after a warm-up's boost: a boost
 * is only fair if the JVM kept what it chose at the quota. {@code availableProcessors()} is re-read from the cgroup on
 * every call (it answered 2 during a 2-CPU boost), so the first requests run at the quota before any boost, and the
 * comparison below is taken back at the quota.
 */
public final class RuntimeInfo {

    /**
     * What a 0.5-CPU container decides at start, and must not change with a boost. Not the heap's maximum, which is
     * read too: -Xmx sets it (.env's LAB_HEAP), not the CPUs, and what {@code Runtime.maxMemory()} reports leaves out
     * one survivor space, which the Parallel collector resizes under load (its imperative JVM on the database read
     * 477 MB before a boost and 506 MB after; judged, that marked every warm-up on Parallel unfinished).
     */
    static final List<String> ERGONOMICS = List.of("availableProcessors", "eventLoops", "workerPoolMax",
            "carrierParallelism", "garbageCollectors");

    private static final Duration READ_TIMEOUT = Duration.ofMinutes(2);

    private RuntimeInfo() {
    }

    /**
     * Read while the warm-up's load runs: on workers the request waits behind every user (3,000 users behind 512
     * workers of a JVM still interpreting at 0.5 CPU took more than 10 s), so it is given two minutes.
     */
    public static Map<String, Object> read(ServiceProcess service) {
        try {
            return Json.MAPPER.readValue(service.get("/lab/runtime", READ_TIMEOUT), new TypeReference<>() { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The ergonomic facts that differ between the two readings, as "key: before -> after". */
    public static List<String> ergonomicsChanged(Map<String, Object> before, Map<String, Object> after) {
        return ERGONOMICS.stream().filter(k -> !Objects.equals(before.get(k), after.get(k)))
                .map(k -> k + ": " + before.get(k) + " -> " + after.get(k)).toList();
    }
}
