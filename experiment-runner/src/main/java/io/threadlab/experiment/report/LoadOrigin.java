package io.threadlab.experiment.report;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where the load came from, as the manifest's {@code placement} recorded it: the same machine as the services (k6
 * then shares its CPUs, which the headroom check weighs), another Docker engine, or a cluster; and the round trip
 * between k6 and the services, measured with no service work on it. A run from before placements were recorded ran
 * everything on one machine.
 */
record LoadOrigin(Map<String, Object> services, boolean database, Map<String, Object> load, boolean sameMachine,
                  Map<String, Object> roundTrip, Map<?, ?> k6Environment) {

    static LoadOrigin of(Run run) {
        Map<String, Object> placement = run.manifest().placement();
        if (placement == null) {
            return new LoadOrigin(Map.of(), false, Map.of(), true, Map.of(), Map.of());
        }
        return new LoadOrigin(map(placement.get("services")), placement.containsKey("database"),
                map(placement.get("load")), !Boolean.FALSE.equals(placement.get("same_machine")),
                map(placement.get("round_trip")), run.manifest().k6Environment());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** Whether the services ran on another engine or a cluster, whatever machine that was. */
    boolean elsewhere() {
        String kind = String.valueOf(services.getOrDefault("kind", ""));
        return kind.contains("another") || kind.contains("cluster");
    }

    /** Median round trip in ms, or NaN when none was measured. */
    double wireMs() {
        return roundTrip.get("median_ms") instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /**
     * Sentences for the Setup: where the services and k6 ran when that was not simply this machine, and the round
     * trip between them; with the services on another machine, what that adds to every latency (the report's
     * latencies are k6's, the wire included); then k6's collector as the run set it. Empty for a run that recorded no
     * placement.
     */
    String sentences() {
        return placed() + collector();
    }

    private String placed() {
        String wire = roundTrip.isEmpty() ? "" : String.format(Locale.ROOT, " The round trip between k6 and the"
                        + " services with no service work on it (%s, %s samples) was %s ms median, %s ms p99",
                roundTrip.get("method"), roundTrip.get("samples"), number(roundTrip.get("median_ms")),
                number(roundTrip.get("p99_ms")));
        if (!elsewhere() && !loadContained()) {
            return wire.isEmpty() ? "" : wire + ".";
        }
        String where = !elsewhere() ? "the services ran on " + services.getOrDefault("kind", "this machine")
                : String.format(Locale.ROOT, "the services%s ran on %s %s (%s, %s cores, %s)",
                database ? " and the database" : "", services.get("kind"), services.get("endpoint"),
                services.get("name"), services.get("cores"), services.get("operating_system"));
        String k6 = String.format(Locale.ROOT, "k6 %s (%s, %s cores)", loadContained()
                ? "in a container on the Docker engine at " + load.get("endpoint")
                : "on " + load.getOrDefault("kind", "this machine"), load.get("host"), load.get("cores"));
        String subtracted = !subtractsWire() ? (wire.isEmpty() ? "" : wire + ".") : wire + String.format(Locale.ROOT,
                "; every latency in this report is k6's, so it includes one such round trip per request: the summary"
                + " gives the p50 and p99 less %s ms as well, to compare with a run whose load came over loopback.",
                number(wireMs()));
        if (sameMachine) {
            return " The load came from the same machine: " + where + ", " + k6 + ", over its loopback; they shared"
                    + " its CPUs." + subtracted;
        }
        return " The load came from another machine: " + where + ", " + k6 + ". k6 had its machine to itself: its"
                + " headroom is weighed against that machine's cores alone." + subtracted;
    }

    /** k6's Go runtime settings as the run set them; empty for a run from before they were a knob. */
    private String collector() {
        if (k6Environment.isEmpty()) {
            return "";
        }
        return " k6 ran with " + k6Environment.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", ")) + ", its collector's settings (--k6-gogc, --k6-memory-limit).";
    }

    /**
     * Whether the summary gives its latencies less the round trip as well: where the services ran elsewhere (another
     * engine or a cluster, the wire between) and the round trip was measured.
     */
    boolean subtractsWire() {
        return elsewhere() && !Double.isNaN(wireMs());
    }

    /**
     * The cores of the machine k6 ran on, against which its headroom is weighed: the load's own where the manifest
     * recorded them (k6 in a container on another engine), else the run's machine's.
     */
    double loadCores(double machineCores) {
        return load.get("cores") instanceof Number n && n.doubleValue() > 0 ? n.doubleValue() : machineCores;
    }

    /** Whether k6 ran in a container on an engine, not as a process on the runner's machine. */
    boolean loadContained() {
        return String.valueOf(load.getOrDefault("kind", "")).startsWith("a container");
    }

    /** Whether k6 had a machine of its own, apart from the services. */
    boolean loadAlone() {
        return elsewhere() && !sameMachine;
    }

    private static String number(Object value) {
        return value instanceof Number n ? String.format(Locale.ROOT, "%.3f", n.doubleValue()) : "?";
    }
}
