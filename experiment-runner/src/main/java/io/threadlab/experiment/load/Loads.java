package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.start.RunningJvm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Starts the lab's k6 scripts against one JVM, k6 where its {@link K6Host} runs it. One load runs at a
 * time: the closed model as a {@link LoadSession} that lasts as long as consecutive steps want the same JVM at the
 * same level, drained (nothing aborted) before any other load starts.
 */
public final class Loads {

    /** Longest a drain waits for requests in flight: k6's own request timeout (k6/lib.js), and a margin. */
    public static final Duration DRAIN_PATIENCE = Duration.ofSeconds(70);

    private final K6Host host;
    private final Path out;
    private java.util.function.LongConsumer onStart = pid -> { };
    private LoadSession current;
    /** The k6 started last: one load runs at a time. */
    private K6Run latest;
    private long abandoned;

    /** @param out where each run's summary and log go (the results directory's k6/) */
    public Loads(K6Host host, Path out) {
        this.host = host;
        this.out = out;
    }

    /** What to do with each k6 process as it starts (put it in the load's cpuset). */
    public void onStart(java.util.function.LongConsumer action) {
        this.onStart = action;
    }

    /**
     * The closed model at {@code users} users against {@code jvm}: the load already running if it is that one and
     * keeps the histogram the step needs, else a new one, after the running one (if any) has drained.
     *
     * @param atMostSeconds how long k6 may run if nobody ends it (a safety net: the runner always drains it)
     * @param percentiles   whether the step reports latency percentiles: only then does k6 keep its live histogram,
     *                      which makes starting its users about ten times slower (k6/lib.js)
     */
    public LoadSession session(RunningJvm jvm, int users, String path, int atMostSeconds, String name,
                               boolean percentiles) {
        if (current != null && current.drives(jvm, users, path, percentiles)) {
            current.resume(); // if an open model parked it
            return current;
        }
        end();
        Map<String, String> env = base(jvm, path);
        env.put("VUS", String.valueOf(users));
        env.put("DURATION", atMostSeconds + "s");
        env.put("CONTROLLED", "1");
        env.put("PERCENTILES", percentiles ? "1" : "0");
        current = LoadSession.start(jvm, users, path, percentiles, host.apiAddress(), port -> started(K6Run.start(host,
                "closed.js", env, out, name, port)));
        onStart.accept(current.pid());
        return current;
    }

    /**
     * What the running load meets changes from now on (the downstream's wait, the CPUs, a recording): the next settle
     * waits until every user has been answered again. A load that has run on unchanged is steady already.
     */
    public void changed() {
        if (current != null && current.isAlive()) {
            current.changed();
        }
    }

    /**
     * Ends the running load, if any, by draining it.
     *
     * @return requests that were still in flight when the drain gave up (0 when clean)
     */
    public long end() {
        if (current == null) {
            return 0;
        }
        LoadSession ending = current;
        current = null;
        long left = ending.drain(DRAIN_PATIENCE);
        if (left > 0) {
            abandoned += left;
        }
        return left;
    }

    /** Parks the running load, if any; one that would not empty in the drain's patience is ended instead. */
    private void park() {
        if (current == null) {
            return;
        }
        long left = current.park(DRAIN_PATIENCE);
        if (left != 0) {
            LoadSession ending = current;
            current = null;
            ending.stop();
            abandoned += Math.max(0, left);
        }
    }

    /**
     * Stops the running load at once, whatever it has in flight: after a step that would not end, so that nothing is
     * left running. Its requests in flight count as abandoned.
     */
    public void abort() {
        if (current != null) {
            LoadSession ending = current;
            current = null;
            ending.close();
            abandoned += Math.max(0, ending.lastInFlight());
        }
    }

    /** Ends the running load if it drives {@code jvm} (before that JVM stops). */
    public void endOn(RunningJvm jvm) {
        if (current != null && current.jvm() == jvm) {
            end();
        }
    }

    /** Requests left in flight by drains that ran out of patience, over the whole run (0 is the aim). */
    public long abandoned() {
        return abandoned;
    }

    /**
     * The open model: arrival-rate steps of {@code stepSeconds} each, while the running closed load (if any) is parked
     * with nothing in flight, to be resumed by the next step that wants it (the map's next delay at the same users)
     * or drained by the next that does not.
     *
     * @param latencyMs the latency to expect, so that k6 starts with users enough for each rate
     */
    public K6Run open(RunningJvm jvm, String path, List<Integer> rates, int stepSeconds, int maxUsers, int latencyMs,
                      String name) {
        park();
        Map<String, String> env = base(jvm, path);
        env.put("RATES", rates.stream().map(String::valueOf).collect(Collectors.joining(",")));
        env.put("STEP", stepSeconds + "s");
        env.put("MAX_VUS", String.valueOf(maxUsers));
        env.put("LATENCY_MS", String.valueOf(latencyMs));
        K6Run run = start("open.js", env, name);
        onStart.accept(run.pid());
        return run;
    }

    /**
     * A burst (k6/burst.js): its requests fired at once at {@code startAtMillis} (epoch ms, the runner's clock, which
     * k6 shares wherever it runs), each on a connection its sender opened before; after the running closed load, if
     * any, has drained, so that the burst meets a JVM with nothing in flight.
     */
    public K6Run burst(RunningJvm jvm, String path, io.threadlab.experiment.plan.Burst burst, long startAtMillis,
                       String name) {
        end();
        Map<String, String> env = base(jvm, path);
        env.put("REQUESTS", String.valueOf(burst.requests()));
        env.put("SENDERS", String.valueOf(burst.senders()));
        env.put("START_AT", String.valueOf(startAtMillis));
        env.put("TIMEOUT", burst.timeoutSeconds() + "s");
        K6Run run = start("burst.js", env, name);
        onStart.accept(run.pid());
        return run;
    }

    private Map<String, String> base(RunningJvm jvm, String path) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BASE_URL", jvm.baseUrl());
        env.put("API_PATH", path);
        env.put("VARIANT", jvm.jvm().variant().label());
        return env;
    }

    private K6Run start(String script, Map<String, String> env, String name) {
        return started(K6Run.start(host, script, env, out, name, 0));
    }

    private K6Run started(K6Run run) {
        latest = run;
        return run;
    }

    /**
     * The CPU counters of the k6 with {@code pid}, wherever it runs: the one started last, or the closed load resumed
     * after an open model's k6 started; nothing for one that has ended.
     */
    CpuReading cpu(long pid) {
        K6Run run = latest;
        if (run != null && run.pid() == pid) {
            return run.cpu();
        }
        LoadSession session = current;
        return session != null && session.pid() == pid ? session.cpu() : CpuReading.NONE;
    }

    /**
     * The round trip from where k6 runs to the services' published {@code port}, with no service work on it: timed
     * here, or by k6 itself where it runs elsewhere.
     */
    public RoundTrip roundTrip(String address, int port) {
        if (host instanceof LocalK6) {
            return RoundTrip.measure(address, port, RoundTrip.SAMPLES);
        }
        K6Run run = K6Run.start(host, "roundtrip.js", Map.of("BASE_URL", "http://" + address + ":" + port,
                "SAMPLES", String.valueOf(RoundTrip.SAMPLES)), out, "roundtrip", 0);
        run.awaitExit(Duration.ofSeconds(90));
        return RoundTrip.fromK6(address, port, out.resolve("roundtrip.json"));
    }

    /** Where k6 runs. */
    public K6Host host() {
        return host;
    }
}
