package io.threadlab.experiment.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * Everything the report states, computed from a run's data: summary cells, ratios (paired by repetition), the split
 * of the imperative variant's cost into stack and threading model, validity checks with their numbers, the JFR
 * recording's cost, warm-ups and time to peak, memory and threads, the mistakes, and the published claims.
 */
public final class Findings {

    public static final String BASELINE = "imperative";
    public static final String CONTROL = "imperative-rest";
    /** The issue's targets, printed beside the measured numbers; never asserted. */
    static final double TARGET_CV = 0.05;
    static final double TARGET_RATIO_HALF_WIDTH = 0.10;
    static final double TARGET_JFR_OVERHEAD = 0.97;
    static final double TARGET_RUN_MINUTES = 15;
    /** A window whose compiler threads used more than this share of the quota measured the JIT too. */
    static final double COMPILER_QUIET_SHARE = 0.02;

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
            new Metric("requests_per_cpu_second", "req per CPU-s", "", 0));

    /** Memory and threads, per variant and level (medians over repetitions). */
    public static final List<Metric> MEMORY = List.of(
            new Metric("rss_mb", "RSS", "MB", 0),
            new Metric("heap_used_mb", "heap used", "MB", 0),
            new Metric("heap_live_mb", "live after GC", "MB", 0),
            new Metric("live_threads", "platform threads", "", 0),
            new Metric("threads", "OS threads", "", 0));

    public record Cell(String variant, int level, Map<String, Stats.Summary> metrics, List<Dot> dots) {
    }

    /** One repetition's throughput, as the report draws it beside the median. */
    public record Dot(int repetition, int jvm, double value) {
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

    /** The imperative variant's cost split into what the stack costs and what the threading model costs. */
    public record Split(int level, String column, Stats.Ratio total, Stats.Ratio stack, Stats.Ratio model,
                        String modelVariant) {
        /**
         * The stack's share of the total, on the log scale (a factor of 2 and a factor of 1.5 add up as logs); not
         * defined when the total itself is within noise.
         */
        public double stackShare() {
            return total.withinNoise() ? Double.NaN : Math.log(stack.ratio()) / Math.log(total.ratio());
        }
    }

    private final RunData data;

    public Findings(RunData data) {
        this.data = data;
    }

    public RunData data() {
        return data;
    }

    // ---- cells ---------------------------------------------------------------------------------------------------

    private static double value(JsonNode row, String column) {
        if (column.equals("requests_per_cpu_second")) {
            double ms = row.path("cpu_ms_per_request").asDouble(Double.NaN);
            return ms > 0 ? 1000.0 / ms : Double.NaN;
        }
        JsonNode v = row.path(column);
        return v.isNumber() ? v.asDouble() : Double.NaN;
    }

    private List<Stats.Observation> observations(String variant, String scenario, String column) {
        return data.cell(variant, scenario).stream()
                .map(r -> new Stats.Observation(value(r, column), r.path("jvm").asInt(1))).toList();
    }

    public List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        for (int level : data.levels()) {
            for (String variant : data.variants()) {
                Map<String, Stats.Summary> metrics = new LinkedHashMap<>();
                for (Metric m : METRICS) {
                    metrics.put(m.column(), Stats.summarise(observations(variant, "closed-" + level, m.column())));
                }
                for (Metric m : MEMORY) {
                    metrics.put(m.column(), Stats.summarise(observations(variant, "closed-" + level, m.column())));
                }
                if (metrics.get("requests_per_second").n() > 0) {
                    List<Dot> dots = data.cell(variant, "closed-" + level).stream().map(r -> new Dot(
                            r.path("repetition").asInt(), r.path("jvm").asInt(1),
                            r.path("requests_per_second").asDouble())).toList();
                    cells.add(new Cell(variant, level, metrics, dots));
                }
            }
        }
        return cells;
    }

    /**
     * Virtual threads started per second in the variant's recorded windows at a level (the median over them), from
     * the analysis' jdk.VirtualThreadStart counts: no counter outside JFR says how many a JVM started.
     */
    public OptionalDouble virtualThreadsPerSecond(String variant, int level) {
        String prefix = variant + "-closed-" + level + "-jfr-";
        List<Double> rates = new ArrayList<>();
        data.analysis().ifPresent(a -> a.path("recordings").forEach(r -> {
            if (r.path("window").asText().startsWith(prefix) && r.path("seconds").asDouble() > 0) {
                rates.add(r.path("virtual_threads_started").asDouble() / r.path("seconds").asDouble());
            }
        }));
        if (rates.isEmpty()) {
            return OptionalDouble.empty();
        }
        Collections.sort(rates);
        int mid = rates.size() / 2;
        return OptionalDouble.of(rates.size() % 2 == 1 ? rates.get(mid) : (rates.get(mid - 1) + rates.get(mid)) / 2);
    }

    /** {@code variant / against} for a column at a level, paired by repetition. */
    public Stats.Ratio ratio(String variant, String against, int level, String column) {
        return paired(variant, "closed-" + level, against, "closed-" + level, column);
    }

    private Stats.Ratio paired(String variant, String scenario, String against, String againstScenario,
                               String column) {
        Map<Integer, JsonNode> other = new LinkedHashMap<>();
        data.cell(against, againstScenario).forEach(r -> other.put(r.path("repetition").asInt(), r));
        List<Stats.Pair> pairs = new ArrayList<>();
        for (JsonNode r : data.cell(variant, scenario)) {
            JsonNode b = other.get(r.path("repetition").asInt());
            if (b != null) {
                pairs.add(new Stats.Pair(value(r, column), value(b, column), r.path("jvm").asInt(1)));
            }
        }
        return Stats.pairedRatio(pairs);
    }

    public int topLevel() {
        return data.levels().stream().mapToInt(i -> i).max().orElse(0);
    }

    /** Variants the run answers the question with: the design card's and the control, not the gallery's. */
    public List<String> mainVariants() {
        JsonNode roles = data.manifest().path("plan").path("roles");
        List<String> mistakes = mistakeLabels();
        return data.variants().stream().filter(v -> !mistakes.contains(v)).filter(v -> !roles.has(v)
                || roles.path(v).asText().equals("MODEL") || roles.path(v).asText().equals("CONTROL")).toList();
    }

    /** The answer in a sentence per level, from throughput ratios against the imperative variant. */
    public List<String> headline() {
        List<String> lines = new ArrayList<>();
        if (!data.variants().contains(BASELINE)) {
            return lines;
        }
        for (int level : data.levels()) {
            List<String> parts = new ArrayList<>();
            for (String variant : mainVariants()) {
                if (variant.equals(BASELINE)) {
                    continue;
                }
                Stats.Ratio r = ratio(variant, BASELINE, level, "requests_per_second");
                Stats.Ratio cpu = ratio(variant, BASELINE, level, "cpu_ms_per_request");
                if (Double.isNaN(r.ratio())) {
                    continue;
                }
                parts.add(String.format(Locale.ROOT, "%s %s the imperative throughput%s at %s the CPU per request%s",
                        variant, times(r), r.withinNoise() ? " (within noise)" : "", times(cpu),
                        unfinished(variant) ? " — NOT A FINDING: its compiler had not finished" : ""));
            }
            if (!parts.isEmpty()) {
                lines.add("At " + level + " users: " + String.join("; ", parts) + ".");
            }
        }
        return lines;
    }

    static String times(Stats.Ratio r) {
        if (Double.isNaN(r.ratio())) {
            return "–";
        }
        if (Double.isNaN(r.low())) {
            return String.format(Locale.ROOT, "%.2f×", r.ratio());
        }
        return String.format(Locale.ROOT, "%.2f× (95 %% CI %.2f–%.2f)", r.ratio(), r.low(), r.high());
    }

    // ---- stack versus threading model ---------------------------------------------------------------------------

    /** Present when the control ran beside the imperative variant: imperative → control → each other model. */
    public List<Split> splits() {
        List<Split> splits = new ArrayList<>();
        if (!data.variants().contains(BASELINE) || !data.variants().contains(CONTROL)) {
            return splits;
        }
        for (int level : data.levels()) {
            for (String model : List.of("reactive", "virtual-thread")) {
                if (!data.variants().contains(model)) {
                    continue;
                }
                for (String column : List.of("cpu_ms_per_request", "requests_per_second")) {
                    splits.add(new Split(level, column, ratio(BASELINE, model, level, column),
                            ratio(BASELINE, CONTROL, level, column), ratio(CONTROL, model, level, column), model));
                }
            }
        }
        return splits;
    }

    // ---- warm-up, time to peak, stationarity ------------------------------------------------------------------------

    /** A JVM whose compiler had not finished when its warm-up ended, or whose sizes changed with the boost. */
    public boolean unfinished(String variant) {
        return data.warmUps().stream().anyMatch(w -> w.path("variant").asText().equals(variant)
                && !w.path("finished").asBoolean(false));
    }

    /** Windows whose compiler threads used more than the quiet share of the quota, by id. */
    public List<String> busyCompilerWindows() {
        List<String> busy = new ArrayList<>();
        for (JsonNode r : data.rows()) {
            if (r.path("compiler_share").asDouble(0) > COMPILER_QUIET_SHARE) {
                busy.add(String.format(Locale.ROOT, "%s %s rep %d (%.1f %%)", r.path("variant").asText(),
                        r.path("scenario").asText(), r.path("repetition").asInt(),
                        r.path("compiler_share").asDouble() * 100));
            }
        }
        return busy;
    }

    /** Throughput of one cell in the order it was measured. */
    public List<Double> inTimeOrder(String variant, int level) {
        return data.cell(variant, "closed-" + level).stream()
                .sorted((a, b) -> a.path("started_at").asText().compareTo(b.path("started_at").asText()))
                .map(r -> r.path("requests_per_second").asDouble()).toList();
    }

    // ---- JFR overhead -----------------------------------------------------------------------------------------------

    /** Throughput with the detailed recording over without it, per variant, paired by repetition at each level. */
    public Map<String, Map<Integer, Stats.Ratio>> jfrOverhead() {
        Map<String, Map<Integer, Stats.Ratio>> ratios = new LinkedHashMap<>();
        for (String variant : data.variants()) {
            for (int level : data.levels()) {
                Stats.Ratio r = paired(variant, "closed-" + level + "-jfr", variant, "closed-" + level,
                        "requests_per_second");
                if (!Double.isNaN(r.ratio())) {
                    ratios.computeIfAbsent(variant, v -> new LinkedHashMap<>()).put(level, r);
                }
            }
        }
        return ratios;
    }

    // ---- open model -------------------------------------------------------------------------------------------------

    /** Per variant, the open-model steps. */
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

    // ---- mistakes ---------------------------------------------------------------------------------------------------

    /** A mistake of the gallery, beside what it spoils. */
    public record Mistake(String label, String spoils, Map<Integer, Stats.Ratio[]> costByLevel,
                          List<String> evidence) {
    }

    private List<String> mistakeLabels() {
        List<String> labels = new ArrayList<>();
        data.manifest().path("plan").path("mistakes").fields()
                .forEachRemaining(e -> labels.add(e.getKey()));
        return labels;
    }

    /** Throughput, p99 and CPU per request of each mistake over its reference, with the analysis' evidence. */
    public List<Mistake> mistakes() {
        List<Mistake> mistakes = new ArrayList<>();
        data.manifest().path("plan").path("mistakes").fields().forEachRemaining(e -> {
            String label = e.getKey();
            String spoils = e.getValue().asText();
            Map<Integer, Stats.Ratio[]> cost = new LinkedHashMap<>();
            for (int level : data.levels()) {
                cost.put(level, new Stats.Ratio[] {ratio(label, spoils, level, "requests_per_second"),
                        ratio(label, spoils, level, "p99_ms"), ratio(label, spoils, level, "cpu_ms_per_request")});
            }
            List<String> evidence = new ArrayList<>();
            data.analysis().ifPresent(a -> a.path("recordings").forEach(r -> {
                if (r.path("window").asText().startsWith(label + "-closed-")) {
                    r.path("mistakes").forEach(m -> evidence.add(r.path("window").asText() + ": "
                            + m.path("evidence").asText(m.toString())));
                }
            }));
            mistakes.add(new Mistake(label, spoils, cost, evidence));
        });
        return mistakes;
    }

    // ---- validity checks --------------------------------------------------------------------------------------------

    public List<Check> checks() {
        List<Check> checks = new ArrayList<>();
        double quota = data.manifest().path("confinement").path("variant_cpu_quota").asDouble(Double.NaN);
        boolean limits = data.manifest().path("confinement").path("limits_cpu").asBoolean(false);
        double maxCores = max(data.rows(), r -> r.path("cpu_cores").asDouble(0));
        List<String> cpus = new ArrayList<>();
        data.warmUps().forEach(w -> cpus.add(w.path("jvm").asText() + "="
                + w.path("runtime_before").path("availableProcessors").asText("?")));
        checks.add(new Check("Confinement held", limits && maxCores <= quota * 1.05, limits
                ? String.format(Locale.ROOT, "method %s, quota %.2f CPU; busiest window used %.2f CPU;"
                + " availableProcessors %s", data.manifestText("confinement", "method"), quota, maxCores, cpus)
                : "NOT CONFINED: variants ran on the whole machine (" + data.manifestText("warnings") + ")"));

        List<String> unfinished = new ArrayList<>();
        List<String> warmUps = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (JsonNode w : data.warmUps()) {
            warmUps.add(String.format(Locale.ROOT, "%s %.0f s", w.path("jvm").asText(), w.path("seconds").asDouble()));
            if (!w.path("finished").asBoolean(false)) {
                List<String> why = new ArrayList<>();
                w.path("levels").forEach(l -> {
                    if (!l.path("finished").asBoolean()) {
                        why.add(l.path("users").asText() + " users: " + l.path("reason").asText());
                    }
                });
                unfinished.add(w.path("jvm").asText() + " (" + String.join("; ", why) + ")");
            }
            if (w.path("ergonomics_changed").size() > 0) {
                changed.add(w.path("jvm").asText() + " " + w.path("ergonomics_changed"));
            }
        }
        checks.add(new Check("Every JVM's compiler finished before its first window", unfinished.isEmpty()
                && !warmUps.isEmpty(), (unfinished.isEmpty() ? "compile queue empty and compiler threads at most "
                + pct(COMPILER_QUIET_SHARE) + " of the quota at every level, after " : "NOT FINISHED: " + unfinished
                + "; ") + String.join(", ", warmUps)));
        checks.add(new Check("The warm-up's boost changed nothing the JVM sized at the quota", changed.isEmpty()
                && !warmUps.isEmpty(), changed.isEmpty() ? "availableProcessors, event loops, worker maximum, carrier"
                + " parallelism, heap and GC identical before and after the boost to "
                + data.manifestText("confinement", "warm_up_cpu_quota") + " CPUs, in every JVM" : "CHANGED: " + changed));

        List<String> busy = busyCompilerWindows();
        checks.add(new Check("The compiler stayed quiet in every measured window", busy.isEmpty(), busy.isEmpty()
                ? "compiler threads used at most " + pct(COMPILER_QUIET_SHARE) + " of the quota in every window"
                : busy.size() + " windows above " + pct(COMPILER_QUIET_SHARE) + ": " + String.join(", ", busy)));

        List<String> noisy = new ArrayList<>();
        List<String> rising = new ArrayList<>();
        List<String> cvs = new ArrayList<>();
        List<String> jvmSpreads = new ArrayList<>();
        for (Cell c : cells()) {
            if (mistakeLabels().contains(c.variant())) {
                continue;
            }
            Stats.Summary s = c.metrics().get("requests_per_second");
            String name = c.variant() + "@" + c.level();
            cvs.add(String.format(Locale.ROOT, "%s %s", name, pct(s.cv())));
            if (s.cv() > TARGET_CV) {
                noisy.add(name);
            }
            if (Stats.onlyRises(inTimeOrder(c.variant(), c.level()))) {
                rising.add(name + " " + inTimeOrder(c.variant(), c.level()).stream()
                        .map(v -> String.format(Locale.ROOT, "%.0f", v)).toList());
            }
            if (!Double.isNaN(s.jvmSpread())) {
                jvmSpreads.add(String.format(Locale.ROOT, "%s %s", name, pct(s.jvmSpread())));
            }
        }
        checks.add(new Check("Every cell's throughput CV is at most " + pct(TARGET_CV), noisy.isEmpty() && !cvs.isEmpty(),
                (noisy.isEmpty() ? "" : "ABOVE: " + noisy + "; ") + String.join(", ", cvs)));
        checks.add(new Check("No cell's repetitions only ever rise (still warming up)", rising.isEmpty(),
                rising.isEmpty() ? "none" : String.join("; ", rising)));
        checks.add(new Check("JVM starts agree", true, jvmSpreads.isEmpty() ? "one JVM start per variant: not measured"
                : "largest over smallest JVM mean, minus 1: " + String.join(", ", jvmSpreads)
                + " (in the intervals: the JVM start is a level)"));

        List<String> wide = new ArrayList<>();
        List<String> widths = new ArrayList<>();
        List<String> main = mainVariants();
        for (int level : data.levels()) {
            for (int i = 0; i < main.size(); i++) {
                for (int j = i + 1; j < main.size(); j++) {
                    Stats.Ratio r = ratio(main.get(j), main.get(i), level, "requests_per_second");
                    String name = main.get(j) + "/" + main.get(i) + "@" + level;
                    widths.add(name + " ±" + pct(r.relativeHalfWidth()));
                    if (!(r.relativeHalfWidth() <= TARGET_RATIO_HALF_WIDTH)) {
                        wide.add(name);
                    }
                }
            }
        }
        checks.add(new Check("Every throughput ratio's 95 % CI half-width is at most " + pct(TARGET_RATIO_HALF_WIDTH),
                wide.isEmpty() && !widths.isEmpty(), (wide.isEmpty() ? "" : "WIDER: " + wide + "; ")
                + String.join(", ", widths)));

        List<String> overheads = new ArrayList<>();
        boolean cheap = true;
        for (Map.Entry<String, Map<Integer, Stats.Ratio>> e : jfrOverhead().entrySet()) {
            for (Map.Entry<Integer, Stats.Ratio> l : e.getValue().entrySet()) {
                Stats.Ratio r = l.getValue();
                overheads.add(String.format(Locale.ROOT, "%s@%d %s (%d pairs)", e.getKey(), l.getKey(), times(r),
                        r.pairs()));
                cheap &= r.ratio() >= TARGET_JFR_OVERHEAD;
            }
        }
        checks.add(new Check("The detailed recording costs at most " + pct(1 - TARGET_JFR_OVERHEAD) + " of throughput",
                cheap && !overheads.isEmpty(), overheads.isEmpty() ? "no recorded twins in this run"
                : "recorded / plain throughput: " + String.join(", ", overheads)));

        double requestedMs = data.manifest().path("knobs").path("lab.delay.ms").asDouble(10);
        double worstServed = max(data.rows(), r -> r.path("delay_served_mean_ms").asDouble(0));
        double delayCpu = max(data.rows(), r -> r.path("delay_cpu_seconds").asDouble(0)
                / Math.max(1e-9, r.path("window_seconds").asDouble(1)));
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

        long errors = data.rows().stream().filter(r -> !mistakeLabels().contains(r.path("variant").asText()))
                .mapToLong(r -> r.path("errors").asLong(0)).sum();
        checks.add(new Check("No errors", errors == 0, errors + " failed requests in the variants' windows"
                + (mistakeLabels().isEmpty() ? "" : " (the mistakes' own are in their cards)")));

        double minutes = runMinutes();
        checks.add(new Check("The run took at most " + (int) TARGET_RUN_MINUTES + " min", minutes <= TARGET_RUN_MINUTES,
                String.format(Locale.ROOT, "%.1f min from the first step to the last (build excluded)", minutes)));

        checks.add(new Check("Run completed", data.manifest().path("completed").asBoolean(false),
                "status " + data.manifestText("status")
                        + (data.manifest().has("failure") ? ": " + data.manifestText("failure") : "")));
        return checks;
    }

    /** Minutes from the first step's start to the last step's end, as the manifest recorded them. */
    public double runMinutes() {
        double end = 0;
        for (JsonNode step : data.manifest().path("schedule_as_run")) {
            end = Math.max(end, step.path("started_at_seconds").asDouble() + step.path("seconds").asDouble());
        }
        return end / 60;
    }

    private static double max(List<JsonNode> rows, ToDoubleFunction<JsonNode> f) {
        return rows.stream().mapToDouble(f).max().orElse(0);
    }

    static String pct(double share) {
        return Double.isNaN(share) ? "–" : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    // ---- published claims -------------------------------------------------------------------------------------------

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
