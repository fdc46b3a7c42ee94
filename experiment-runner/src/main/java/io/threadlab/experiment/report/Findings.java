package io.threadlab.experiment.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the report states, computed from a run's data: summary cells, ratios against the imperative variant,
 * validity checks, saturation knees, the JFR overhead, and this run beside the published claims.
 */
public final class Findings {

    public static final String BASELINE = "imperative";

    /** Columns of the summary table: results.csv column, heading, unit, digits. */
    public record Metric(String column, String heading, String unit, int digits) {
    }

    public static final List<Metric> METRICS = List.of(
            new Metric("requests_per_second", "req/s", "", 0),
            new Metric("p50_ms", "p50", "ms", 1),
            new Metric("p90_ms", "p90", "ms", 1),
            new Metric("p99_ms", "p99", "ms", 1),
            new Metric("max_ms", "max", "ms", 0),
            new Metric("errors", "errors", "", 0),
            new Metric("cpu_ms_per_request", "CPU per request", "ms", 3),
            new Metric("requests_per_cpu_second", "req per CPU-s", "", 0),
            new Metric("rss_mb", "RSS", "MB", 0),
            new Metric("threads", "threads", "", 0));

    public record Cell(String variant, int level, Map<String, Stats.Summary> metrics) {
    }

    public record Check(String name, boolean passed, String detail) {
    }

    public record Claim(String source, String claim, String setup, String comparison, Stats.Ratio thisRun,
                        double published, String differences) {
    }

    /** One open-model step of one variant. */
    public record Step(int offered, double achieved, Double p99, long dropped) {
        boolean sustained() {
            return achieved >= 0.95 * offered && dropped <= 0.01 * offered * 1.0;
        }
    }

    private final RunData data;

    public Findings(RunData data) {
        this.data = data;
    }

    public RunData data() {
        return data;
    }

    private List<Double> column(String variant, String scenario, String column) {
        if (column.equals("requests_per_cpu_second")) {
            return data.values(variant, scenario, "cpu_ms_per_request").stream()
                    .map(ms -> ms == null || ms.isNaN() || ms <= 0 ? Double.NaN : 1000.0 / ms).toList();
        }
        return data.values(variant, scenario, column);
    }

    public List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        for (int level : data.levels()) {
            for (String variant : data.variants()) {
                Map<String, Stats.Summary> metrics = new LinkedHashMap<>();
                for (Metric m : METRICS) {
                    metrics.put(m.column(), Stats.summarise(column(variant, "closed-" + level, m.column())));
                }
                if (metrics.get("requests_per_second").n() > 0) {
                    cells.add(new Cell(variant, level, metrics));
                }
            }
        }
        return cells;
    }

    /** {@code variant / imperative} for a column at a level. */
    public Stats.Ratio ratio(String variant, String against, int level, String column) {
        return Stats.ratio(column(variant, "closed-" + level, column), column(against, "closed-" + level, column));
    }

    /** The answer in a sentence per level, from throughput ratios against the imperative variant. */
    public List<String> headline() {
        List<String> lines = new ArrayList<>();
        if (!data.variants().contains(BASELINE)) {
            return lines;
        }
        for (int level : data.levels()) {
            List<String> parts = new ArrayList<>();
            for (String variant : data.variants()) {
                if (variant.equals(BASELINE)) {
                    continue;
                }
                Stats.Ratio r = ratio(variant, BASELINE, level, "requests_per_second");
                Stats.Ratio cpu = ratio(variant, BASELINE, level, "cpu_ms_per_request");
                if (Double.isNaN(r.ratio())) {
                    continue;
                }
                parts.add(String.format(Locale.ROOT, "%s %s the imperative throughput%s at %s the CPU per request",
                        variant, times(r), r.withinNoise() ? " (within noise)" : "", times(cpu)));
            }
            if (!parts.isEmpty()) {
                lines.add("At " + level + " users: " + String.join("; ", parts) + ".");
            }
        }
        return lines;
    }

    static String times(Stats.Ratio r) {
        if (Double.isNaN(r.low())) {
            return String.format(Locale.ROOT, "%.2f×", r.ratio());
        }
        return String.format(Locale.ROOT, "%.2f× (95 %% CI %.2f–%.2f)", r.ratio(), r.low(), r.high());
    }

    public List<Check> checks() {
        List<Check> checks = new ArrayList<>();
        double quota = data.manifest().path("confinement").path("variant_cpu_quota").asDouble(Double.NaN);
        boolean limits = data.manifest().path("confinement").path("limits_cpu").asBoolean(false);
        double maxCores = data.rows().stream().mapToDouble(r -> r.path("cpu_cores").asDouble(0)).max().orElse(0);
        List<String> cpus = new ArrayList<>();
        data.manifest().path("variants").fields().forEachRemaining(e -> cpus.add(e.getKey() + "="
                + e.getValue().path("runtime").path("availableProcessors").asText("?")));
        checks.add(new Check("Confinement held", limits && maxCores <= quota * 1.05, limits
                ? String.format(Locale.ROOT, "method %s, quota %.2f CPU; busiest window used %.2f CPU;"
                + " availableProcessors %s", data.manifestText("confinement", "method"), quota, maxCores, cpus)
                : "NOT CONFINED: variants ran on the whole machine (" + data.manifestText("warnings") + ")"));

        double requestedMs = data.manifest().path("knobs").path("lab.delay.ms").asDouble(10);
        double worstServed = data.rows().stream().mapToDouble(r -> r.path("delay_served_mean_ms").asDouble(0)).max()
                .orElse(0);
        double delayCpu = data.rows().stream().mapToDouble(r -> r.path("delay_cpu_seconds").asDouble(0)
                / Math.max(1e-9, r.path("window_seconds").asDouble(1))).max().orElse(0);
        checks.add(new Check("Delay service had headroom", worstServed <= requestedMs * 1.3 + 1,
                String.format(Locale.ROOT, "asked for %.0f ms, served %.1f ms on average in the worst window;"
                        + " it used at most %.2f CPU", requestedMs, worstServed, delayCpu)));

        int cores = data.manifest().path("lab").path("machine_cores").asInt(2);
        double worstK6 = 0;
        double worstK6Share = 0;
        for (JsonNode r : data.rows()) {
            double seconds = Math.max(1e-9, r.path("window_seconds").asDouble(1));
            double k6 = r.path("k6_cpu_seconds").asDouble(0) / seconds;
            double room = cores - r.path("cpu_cores").asDouble(0) - r.path("delay_cpu_seconds").asDouble(0) / seconds;
            worstK6 = Math.max(worstK6, k6);
            worstK6Share = Math.max(worstK6Share, k6 / Math.max(1e-9, room));
        }
        long closedDrops = data.rows().stream().filter(r -> r.path("scenario").asText().startsWith("closed"))
                .mapToLong(r -> r.path("dropped_iterations").asLong(0)).sum();
        checks.add(new Check("k6 had headroom", worstK6Share <= 0.8 && closedDrops == 0,
                String.format(Locale.ROOT, "k6 used at most %.2f CPU, %.0f %% of what was left to it; %d dropped"
                        + " iterations in closed-model windows", worstK6, worstK6Share * 100, closedDrops)));

        List<String> notSteady = new ArrayList<>();
        List<String> warmUps = new ArrayList<>();
        data.manifest().path("variants").fields().forEachRemaining(e -> {
            JsonNode w = e.getValue().path("warm_up");
            warmUps.add(e.getKey() + " " + w.path("seconds").asText("?") + " s");
            if (!w.path("steady").asBoolean(false)) {
                notSteady.add(e.getKey());
            }
        });
        checks.add(new Check("Warm-up reached steady state", notSteady.isEmpty() && !warmUps.isEmpty(),
                (notSteady.isEmpty() ? "steady throughput and a quiet JIT: " : "NOT steady: " + notSteady + "; ")
                        + String.join(", ", warmUps)));

        long errors = data.rows().stream().mapToLong(r -> r.path("errors").asLong(0)).sum();
        checks.add(new Check("No errors", errors == 0, errors + " failed requests in all windows"));

        checks.add(new Check("Run completed", data.manifest().path("completed").asBoolean(false),
                "status " + data.manifestText("status")
                        + (data.manifest().has("failure") ? ": " + data.manifestText("failure") : "")));
        return checks;
    }

    /** Per variant, the open-model steps of repetition 1. */
    public Map<String, List<Step>> openSteps() {
        Map<String, List<Step>> steps = new LinkedHashMap<>();
        for (String variant : data.variants()) {
            for (JsonNode row : data.cell(variant, "open")) {
                List<Step> list = new ArrayList<>();
                row.path("steps").forEach(s -> list.add(new Step(s.path("offered_rate").asInt(),
                        s.path("achieved_rate").asDouble(), s.path("p99_ms").isNumber() ? s.path("p99_ms").asDouble()
                        : null, s.path("dropped_iterations").asLong())));
                if (!list.isEmpty()) {
                    steps.put(variant, list);
                }
            }
        }
        return steps;
    }

    /** The saturation knee: the highest offered rate sustained (95 % achieved, at most 1 % dropped) before the first one that was not. */
    public static Optional<Integer> knee(List<Step> steps) {
        Integer knee = null;
        for (Step s : steps) {
            if (!s.sustained()) {
                break;
            }
            knee = s.offered();
        }
        return Optional.ofNullable(knee);
    }

    /** Throughput with the detailed recording over without it, per variant and level (repetition 1). */
    public Map<String, Map<Integer, Double>> jfrOverhead() {
        Map<String, Map<Integer, Double>> ratios = new LinkedHashMap<>();
        for (String variant : data.variants()) {
            for (int level : data.levels()) {
                double plain = data.cell(variant, "closed-" + level).stream()
                        .filter(r -> r.path("repetition").asInt() == 1)
                        .mapToDouble(r -> r.path("requests_per_second").asDouble()).findFirst().orElse(Double.NaN);
                double recorded = data.cell(variant, "closed-" + level + "-jfr").stream()
                        .mapToDouble(r -> r.path("requests_per_second").asDouble()).findFirst().orElse(Double.NaN);
                if (!Double.isNaN(plain) && !Double.isNaN(recorded) && plain > 0) {
                    ratios.computeIfAbsent(variant, v -> new LinkedHashMap<>()).put(level, recorded / plain);
                }
            }
        }
        return ratios;
    }

    /** The published results this lab speaks to, each beside this run's comparable number. */
    public List<Claim> claims() {
        List<Claim> claims = new ArrayList<>();
        List<Integer> levels = data.levels();
        int low = levels.stream().mapToInt(i -> i).min().orElse(100);
        int high = levels.stream().mapToInt(i -> i).max().orElse(500);
        String cpu = data.manifestText("confinement", "variant_cpu_quota");
        claims.add(new Claim("Quarkus team, 2022", "reactive ≈ +30 % throughput over imperative at equal CPU",
                "Quarkus 2, Java 11, 0.5-CPU containers, 10 ms downstream delay",
                "reactive / imperative throughput at " + high + " users", ratio("reactive", BASELINE, high,
                "requests_per_second"), 1.30, "Quarkus " + data.manifestText("lab", "quarkus_version") + " and JDK "
                + data.manifestText("lab", "runner_java_version") + " here; " + cpu + " CPU via cgroups,"
                + " load generator on the same 2-core machine"));
        claims.add(new Claim("Spring Boot benchmark", "virtual threads +71.6 % over platform threads at 100 users",
                "Spring Boot (Tomcat), 1 CPU, 10 ms network delay, JMeter", "virtual-thread / imperative at " + low
                + " users", ratio("virtual-thread", BASELINE, low, "requests_per_second"), 1.716,
                "Quarkus here, not Spring; " + cpu + " CPU, not 1; the platform-thread baseline is classic"
                + " RESTEasy, whose client stack costs more CPU than Tomcat's"));
        claims.add(new Claim("Spring Boot benchmark", "virtual threads +33.5 % over platform threads at 500 users",
                "as above", "virtual-thread / imperative at " + high + " users",
                ratio("virtual-thread", BASELINE, high, "requests_per_second"), 1.335, "as above"));
        claims.add(new Claim("Spring WebFlux comparison", "virtual threads ≈ WebFlux (reactive) throughput",
                "300 ms sleep, 3000 users", "virtual-thread / reactive at " + high + " users",
                ratio("virtual-thread", "reactive", high, "requests_per_second"), 1.0,
                "10 ms delay and " + high + " users here: far less concurrency in flight, and CPU-bound at "
                + cpu + " CPU"));
        return claims.stream().filter(c -> !Double.isNaN(c.thisRun().ratio())).toList();
    }
}
