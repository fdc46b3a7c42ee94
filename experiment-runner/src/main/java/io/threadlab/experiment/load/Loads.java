package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.start.RunningJvm;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/** Starts the lab's k6 scripts against one JVM, k6 in its own accounted (never limited) group. */
public final class Loads {

    private final K6 k6;
    private final Path scripts;
    private final Path out;
    private final Confinement confinement;

    /** @param out where each run's summary and log go (the results directory's k6/) */
    public Loads(K6 k6, Path labHome, Path out, Confinement confinement) {
        this.k6 = k6;
        this.scripts = labHome.resolve("k6");
        this.out = out;
        this.confinement = confinement;
    }

    /** The closed model: {@code users} users for {@code seconds} (after {@code settleSeconds} not counted). */
    public K6Run closed(RunningJvm jvm, int users, int settleSeconds, int seconds, String name) {
        Map<String, String> env = base(jvm);
        env.put("VUS", String.valueOf(users));
        env.put("SETTLE", settleSeconds + "s");
        env.put("DURATION", seconds + "s");
        return start("closed.js", env, name);
    }

    /** The open model: arrival-rate steps of {@code stepSeconds} each. */
    public K6Run open(RunningJvm jvm, List<Integer> rates, int stepSeconds, int maxUsers, String name) {
        Map<String, String> env = base(jvm);
        env.put("RATES", rates.stream().map(String::valueOf).collect(Collectors.joining(",")));
        env.put("STEP", stepSeconds + "s");
        env.put("MAX_VUS", String.valueOf(maxUsers));
        return start("open.js", env, name);
    }

    private Map<String, String> base(RunningJvm jvm) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BASE_URL", jvm.baseUrl());
        env.put("API_PATH", jvm.jvm().variant().path());
        env.put("VARIANT", jvm.jvm().variant().label());
        return env;
    }

    private K6Run start(String script, Map<String, String> env, String name) {
        return K6Run.start(k6, confinement.wrap("k6", OptionalDouble.empty(), List.of()), scripts.resolve(script),
                env, out.resolve(name + ".json"), out.resolve(name + ".log"));
    }

    public String version() {
        return k6.version();
    }
}
