package io.threadlab.experiment.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * {@code report}: report.md and a self-contained report.html (inline SVG and CSS, no network) from a results
 * directory. Needs no running service. Charts are also written to {@code charts/*.svg}.
 */
public final class Report {

    private final Findings findings;
    private final Map<String, String> charts;
    private final List<CpuBreakdown.Bar> cpuBars;

    private Report(Findings findings) {
        this.findings = findings;
        this.charts = Charts.all(findings);
        this.cpuBars = CpuBreakdown.bars(findings.data());
        if (!cpuBars.isEmpty()) {
            charts.put("where-the-cpu-goes", CpuBreakdown.svg(cpuBars));
        }
        if (!findings.data().timesToPeak().isEmpty()) {
            charts.put("time-to-peak", Charts.timeToPeak(findings.data().timesToPeak()));
        }
    }

    public record Written(Path markdown, Path html) {
    }

    public static Written write(Path dir) throws IOException {
        Report report = new Report(new Findings(RunData.read(dir)));
        Path chartsDir = Files.createDirectories(dir.resolve("charts"));
        for (Map.Entry<String, String> chart : report.charts.entrySet()) {
            Files.writeString(chartsDir.resolve(chart.getKey() + ".svg"), chart.getValue());
        }
        Path md = dir.resolve("report.md");
        Path html = dir.resolve("report.html");
        Files.writeString(md, report.markdown());
        Files.writeString(html, report.html());
        return new Written(md, html);
    }

    // ---- shared content ------------------------------------------------------------------------------------------

    private String setup() {
        RunData d = findings.data();
        return String.format(Locale.ROOT, "Quarkus %s on %s (JDK %s), %s, %s (%d cores, %s MB). Each JVM ran in its"
                        + " own CPU group at %s CPU (%s); the delay service (asked for %s) %s. JVM flags for every"
                        + " service: %s; every JVM also keeps a light JFR recording of compiler events (jfr/compiler.jfc)."
                        + " Knobs: %s. Closed model at %s users, %s s windows, each after load until the compiler was"
                        + " quiet (at least %s s); %s JVM starts per variant x %s repetitions, the variant order"
                        + " rotated each time. Warm-up: %s. Git %s%s.",
                d.manifestText("lab", "quarkus_version"), d.manifestText("lab", "kernel"),
                d.manifestText("lab", "runner_java_version"), d.manifestText("lab", "k6_version"),
                d.manifestText("lab", "cpu_model"), d.manifest().path("lab").path("machine_cores").asInt(),
                d.manifestText("lab", "machine_memory_mb"), d.manifestText("confinement", "variant_cpu_quota"),
                d.manifestText("confinement", "method"), d.manifestText("knobs", "lab.delay.ms") + " ms",
                "none".equals(d.manifestText("confinement", "delay_service_cpu_quota")) ? "was not confined"
                        : "was confined too",
                String.join(" ", texts(d.manifest().path("jvm_flags"))), knobs(d.manifest().path("knobs")),
                String.join(", ", texts(d.manifest().path("plan").path("closed_model_vus"))),
                d.manifestText("plan", "window_seconds"), d.manifestText("plan", "settle_seconds"),
                d.manifestText("plan", "jvm_starts"), d.manifestText("plan", "repetitions_per_jvm"),
                d.warmUps().isEmpty() ? "none recorded" : d.warmUps().getFirst().path("strategy").asText(),
                abbreviate(d.manifestText("lab", "git_sha")),
                d.manifest().path("lab").path("git_dirty").asBoolean(false) ? " (with uncommitted changes)" : "");
    }

    private static String knobs(JsonNode knobs) {
        List<String> parts = new ArrayList<>();
        knobs.fields().forEachRemaining(e -> {
            if (!e.getKey().endsWith(".url")) {
                parts.add(e.getKey().replace("quarkus.rest-client.delay.", "client ").replace("quarkus.", "")
                        + "=" + e.getValue().asText());
            }
        });
        return String.join(", ", parts);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String abbreviate(String sha) {
        return sha.length() > 10 ? sha.substring(0, 10) : sha;
    }

    static String number(double v, int digits) {
        if (Double.isNaN(v)) {
            return "–";
        }
        return String.format(Locale.ROOT, "%,." + digits + "f", v);
    }

    /** Median [interval]. */
    private static String cell(Stats.Summary s, int digits) {
        if (s.n() == 0) {
            return "–";
        }
        String low = number(s.low(), digits);
        String high = number(s.high(), digits);
        if (!s.hasInterval() || low.equals(high)) {
            return number(s.median(), digits);
        }
        return number(s.median(), digits) + " [" + low + "–" + high + "]";
    }

    private static String ratioText(Stats.Ratio r) {
        if (Double.isNaN(r.ratio())) {
            return "–";
        }
        String text = Findings.times(r);
        return r.withinNoise() ? text + ", within noise" : text;
    }

    private List<String> lanes() {
        List<String> files = new ArrayList<>();
        findings.data().analysis().ifPresent(a -> a.path("lanes").fields()
                .forEachRemaining(e -> files.add(e.getValue().asText())));
        return files;
    }

    private String lane(String variant) {
        return findings.data().analysis().map(a -> a.path("lanes").path(variant).asText(null)).orElse(null);
    }

    private List<String> recordings() {
        List<String> files = new ArrayList<>();
        for (JsonNode row : findings.data().rows()) {
            if (row.path("jfr_file").isTextual()) {
                files.add(row.path("jfr_file").asText());
            }
        }
        return files;
    }

    private List<String> verdicts() {
        List<String> lines = new ArrayList<>();
        findings.data().analysis().ifPresent(a -> a.path("recordings").forEach(r -> {
            List<String> said = new ArrayList<>();
            r.path("unexpected").forEach(u -> said.add("UNEXPECTED: " + u.asText()));
            r.path("verdicts").forEach(v -> said.add(v.asText()));
            lines.add(r.path("window").asText() + ": " + String.join("; ", said));
        }));
        return lines;
    }

    /** The heaviest recording's top monitor-contention sites, per variant, from the analysis. */
    private Map<String, List<JsonNode>> contention() {
        Map<String, List<JsonNode>> sites = new LinkedHashMap<>();
        int top = findings.topLevel();
        findings.data().analysis().ifPresent(a -> a.path("recordings").forEach(r -> {
            String variant = r.path("variant").asText();
            if (r.path("window").asText().contains("-closed-" + top + "-jfr-") && !sites.containsKey(variant)) {
                List<JsonNode> list = new ArrayList<>();
                r.path("monitor_enter_sites").forEach(list::add);
                sites.put(variant, list);
            }
        }));
        return sites;
    }

    /** The gallery's texts (docs/mistakes.md, bundled into the runner): one section per mistake, by label. */
    static Map<String, String> mistakeTexts() {
        Map<String, String> sections = new LinkedHashMap<>();
        try (InputStream in = Report.class.getResourceAsStream("mistakes.md")) {
            if (in == null) {
                return sections;
            }
            String current = null;
            StringBuilder text = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("## ")) {
                    if (current != null) {
                        sections.put(current, text.toString().trim());
                    }
                    current = line.substring(3).replaceAll(".*`([a-z-]+)`.*", "$1").trim();
                    text.setLength(0);
                } else if (current != null) {
                    text.append(line).append('\n');
                }
            }
            if (current != null) {
                sections.put(current, text.toString().trim());
            }
        } catch (IOException e) {
            // the cards still show the numbers and the evidence
        }
        return sections;
    }

    private static final String VIRTUAL_THREADS_HEADING = "virtual threads started /s (recorded windows)";

    private String virtualThreads(Findings.Cell c) {
        OptionalDouble perSecond = findings.virtualThreadsPerSecond(c.variant(), c.level());
        return perSecond.isPresent() ? number(perSecond.getAsDouble(), 0) : "–";
    }

    // ---- markdown ------------------------------------------------------------------------------------------------

    String markdown() {
        StringBuilder md = new StringBuilder("# Worker threads, event loop or virtual threads: what this run measured\n\n");
        findings.headline().forEach(h -> md.append("**").append(h).append("**\n\n"));
        md.append("## Setup\n\n").append(setup()).append("\n\n");
        md.append("## Validity checks\n\n| check | result | detail |\n|---|---|---|\n");
        for (Findings.Check c : findings.checks()) {
            md.append("| ").append(c.name()).append(" | ").append(c.passed() ? "passed" : "**FAILED**").append(" | ")
                    .append(c.detail().replace("|", "/")).append(" |\n");
        }
        md.append("\n## Summary\n\n").append(SUMMARY_NOTE).append("\n\n| users | variant | ");
        Findings.METRICS.forEach(m -> md.append(m.heading()).append(m.unit().isEmpty() ? "" : " (" + m.unit() + ")")
                .append(" | "));
        md.append("CV | n (JVMs) |\n|---|---|");
        Findings.METRICS.forEach(m -> md.append("---:|"));
        md.append("---:|---:|\n");
        for (Findings.Cell c : findings.cells()) {
            md.append("| ").append(c.level()).append(" | ").append(c.variant()).append(" | ");
            Findings.METRICS.forEach(m -> md.append(cell(c.metrics().get(m.column()), m.digits())).append(" | "));
            Stats.Summary s = c.metrics().get("requests_per_second");
            md.append(Findings.pct(s.cv())).append(" | ").append(s.n()).append(" (").append(s.jvms()).append(") |\n");
        }
        md.append("\n## Memory and threads\n\n| users | variant | ");
        Findings.MEMORY.forEach(m -> md.append(m.heading()).append(m.unit().isEmpty() ? "" : " (" + m.unit() + ")")
                .append(" | "));
        md.append(VIRTUAL_THREADS_HEADING).append(" |\n|---|---|");
        Findings.MEMORY.forEach(m -> md.append("---:|"));
        md.append("---:|\n");
        for (Findings.Cell c : findings.cells()) {
            md.append("| ").append(c.level()).append(" | ").append(c.variant()).append(" | ");
            Findings.MEMORY.forEach(m -> md.append(number(c.metrics().get(m.column()).median(), m.digits()))
                    .append(" | "));
            md.append(virtualThreads(c)).append(" |\n");
        }
        md.append("\n## Against the imperative variant (paired by repetition)\n\n| users | variant | throughput | p99 |"
                + " CPU per request |\n|---|---|---|---|---|\n");
        for (int level : findings.data().levels()) {
            for (String v : findings.mainVariants()) {
                if (!v.equals(Findings.BASELINE)) {
                    md.append("| ").append(level).append(" | ").append(v).append(" | ")
                            .append(ratioText(findings.ratio(v, Findings.BASELINE, level, "requests_per_second")))
                            .append(" | ").append(ratioText(findings.ratio(v, Findings.BASELINE, level, "p99_ms")))
                            .append(" | ").append(ratioText(findings.ratio(v, Findings.BASELINE, level,
                                    "cpu_ms_per_request"))).append(" |\n");
                }
            }
        }
        if (!findings.splits().isEmpty()) {
            md.append("\n## Stack or threading model?\n\n").append(SPLIT_NOTE).append("\n\n| users | measure | "
                    + "imperative / model (total) | stack: imperative / imperative-rest | model: imperative-rest /"
                    + " model | stack's share |\n|---|---|---|---|---|---:|\n");
            for (Findings.Split s : findings.splits()) {
                md.append("| ").append(s.level()).append(" | ").append(measure(s)).append(" | ")
                        .append(ratioText(s.total())).append(" | ").append(ratioText(s.stack())).append(" | ")
                        .append(ratioText(s.model())).append(" | ").append(Findings.pct(s.stackShare()))
                        .append(" |\n");
            }
        }
        if (!cpuBars.isEmpty()) {
            md.append("\n## Where the CPU goes\n\n").append(CpuBreakdown.markdown(cpuBars)).append('\n');
        }
        Map<String, List<JsonNode>> contention = contention();
        if (!contention.isEmpty()) {
            md.append("\n## Where threads wait for each other\n\n").append(CONTENTION_NOTE).append("\n\n| variant |"
                    + " monitor | site | waits | total ms | longest ms |\n|---|---|---|---:|---:|---:|\n");
            contention.forEach((variant, sites) -> sites.stream().limit(3).forEach(s -> md.append("| ")
                    .append(variant).append(" | `").append(s.path("class").asText()).append("` | `")
                    .append(s.path("site").asText()).append("` | ").append(s.path("count").asLong()).append(" | ")
                    .append(number(s.path("total_ms").asDouble(), 0)).append(" | ")
                    .append(number(s.path("max_ms").asDouble(), 0)).append(" |\n")));
        }
        md.append("\n## Warm-up\n\n").append(WARM_UP_NOTE).append("\n\n| JVM | boost (s) | per level | finished |"
                + "\n|---|---:|---|---|\n");
        for (JsonNode w : findings.data().warmUps()) {
            md.append("| ").append(w.path("jvm").asText()).append(" | ")
                    .append(number(w.path("boost_seconds").asDouble(), 0)).append(" | ").append(levels(w))
                    .append(" | ").append(w.path("finished").asBoolean() ? "yes" : "**NO**").append(" |\n");
        }
        if (!findings.data().timesToPeak().isEmpty()) {
            md.append("\n### Time to peak at the quota\n\n| variant | seconds from JVM start to peak | peak req/s |\n"
                    + "|---|---:|---:|\n");
            for (JsonNode t : findings.data().timesToPeak()) {
                md.append("| ").append(t.path("variant").asText()).append(" | ")
                        .append(t.path("seconds_to_peak").isNumber() ? number(t.path("seconds_to_peak").asDouble(), 0)
                                : "not within the ceiling").append(" | ").append(number(peakRate(t), 0)).append(" |\n");
            }
            md.append("\n![time to peak](charts/time-to-peak.svg)\n");
        }
        md.append("\n## Charts\n\n");
        charts.keySet().forEach(name -> md.append("![").append(name).append("](charts/").append(name)
                .append(".svg)\n\n"));
        if (!findings.mistakes().isEmpty()) {
            md.append("## Common mistakes, measured\n\n");
            Map<String, String> texts = mistakeTexts();
            for (Findings.Mistake m : findings.mistakes()) {
                md.append("### ").append(m.label()).append(" (against ").append(m.spoils()).append(")\n\n");
                m.costByLevel().forEach((level, r) -> md.append("- at ").append(level).append(" users: throughput ")
                        .append(ratioText(r[0])).append(", p99 ").append(ratioText(r[1])).append(", CPU per request ")
                        .append(ratioText(r[2])).append('\n'));
                m.evidence().forEach(e -> md.append("- evidence: ").append(e).append('\n'));
                if (m.evidence().isEmpty()) {
                    md.append("- evidence: the analysis flagged nothing in this mistake's recordings\n");
                }
                md.append('\n').append(texts.getOrDefault(m.label(), "")).append("\n\n");
            }
        }
        md.append("## Published claims versus this run\n\n| claim | their setup | this run | differences |\n"
                + "|---|---|---|---|\n");
        for (Findings.Claim c : findings.claims()) {
            md.append("| ").append(c.claim()).append(" (").append(c.source()).append(") | ").append(c.setup())
                    .append(" | ").append(c.comparison()).append(": ").append(ratioText(c.thisRun()))
                    .append(" (claim ").append(number(c.published(), 2)).append("×) | ").append(c.differences())
                    .append(" |\n");
        }
        md.append("\n## Threads\n\n");
        lanes().forEach(l -> md.append("![lanes](").append(l).append(")\n\n"));
        verdicts().forEach(v -> md.append("- ").append(v).append('\n'));
        md.append("\n## What to open next\n\n- `analysis.md`: the thread analysis, group by group\n");
        recordings().forEach(r -> md.append("- `").append(r).append("`: open in JDK Mission Control\n"));
        md.append("- `jfr/compiler/`: each JVM's compiler recording, from its start to its end\n");
        md.append("- `docs/jfr-in-mission-control.md` in the lab: how to read them\n");
        return md.toString();
    }

    private static String measure(Findings.Split s) {
        return (s.column().equals("cpu_ms_per_request") ? "CPU per request" : "throughput") + " vs " + s.modelVariant();
    }

    private static String levels(JsonNode warmUp) {
        List<String> parts = new ArrayList<>();
        warmUp.path("levels").forEach(l -> parts.add(l.path("users").asText() + " users: " + (l.path("finished")
                .asBoolean() ? "quiet in " + number(l.path("seconds").asDouble(), 0) + " s, "
                + number(l.path("mean_rate").asDouble(), 0) + " req/s" : "not quiet (" + l.path("reason").asText()
                + ")")));
        return String.join("; ", parts);
    }

    private static double peakRate(JsonNode timeToPeak) {
        JsonNode levels = timeToPeak.path("levels");
        return levels.size() == 0 ? Double.NaN : levels.get(levels.size() - 1).path("mean_rate").asDouble();
    }

    static final String SUMMARY_NOTE = "Median over repetitions, with the 95 % interval of the (geometric) mean in"
            + " brackets, computed on the log scale so it never reaches zero. The JVM start is a level: where JVM starts"
            + " differed more than their repetitions explain, the interval comes from the spread between JVM means"
            + " (few degrees of freedom, so wide); otherwise from the spread within them. CV: the throughput's"
            + " coefficient of variation over all repetitions.";
    static final String SPLIT_NOTE = "The control variant, imperative-rest, runs the imperative variant's code (a"
            + " worker thread blocked per call) on the reactive variants' stack (Quarkus REST and its Vert.x-based"
            + " client). So imperative / imperative-rest is what the classic stack costs at the same threading model,"
            + " and imperative-rest / reactive (or / virtual-thread) is what the threading model costs on the same"
            + " stack; the two multiply to the total. The stack's share is its part of the total on the log scale.";
    static final String CONTENTION_NOTE = "Monitor contention in the recorded windows at the highest level, from"
            + " jdk.JavaMonitorEnter (waits of 1 ms or more). The classic REST client copies its provider configuration"
            + " on every call and takes locks shared by all worker threads while copying (SnapshotSet.lockSnapshots,"
            + " ResteasyProviderFactoryImpl.initializeCommon), registers each response with the JVM-wide finalizer"
            + " lock (Response.<init>), and leases and releases connections under Apache HttpClient's single pool lock."
            + " Each critical section is short; the waits are long because under a 0.5-CPU quota a holder can be"
            + " throttled mid-section, and every waiter then waits for the next 100 ms CFS period.";
    static final String WARM_UP_NOTE = "Each JVM first ran a few seconds at the quota, so that what sizes itself on"
            + " first use did so at the quota; then its quota was raised while its compile queue drained; then each"
            + " level was held at the quota until the compile queue stayed empty, the compiler threads used at most"
            + " 2 % of the quota and the throughput had no trend. The JVM's sizes were read before and after the"
            + " boost (see the validity checks). Before every window, load ran again until the compiler was quiet:"
            + " an idle gap, or starting and stopping a recording, makes HotSpot deoptimise and recompile.";

    // ---- html ----------------------------------------------------------------------------------------------------

    String html() {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>Quarkus thread lab: ").append(escape(findings.data().dir().getFileName().toString()))
                .append("</title><style>").append(CSS).append("</style>")
                // Lets a headless browser (the lab's own test) see script errors, if any ever appear.
                .append("<script>window.addEventListener('error', e => document.body.dataset.errors ="
                        + " (document.body.dataset.errors || '') + e.message + ';');</script>")
                .append("</head><body><main>\n");
        h.append("<header><p class=\"kicker\">Quarkus thread lab · ").append(escape(findings.data().dir()
                .getFileName().toString())).append("</p><h1>Worker threads, event loop or virtual threads?</h1>");
        h.append(tiles());
        findings.headline().forEach(line -> h.append("<p class=\"headline\">").append(escape(line)).append("</p>"));
        List<String> unfinished = findings.mainVariants().stream().filter(findings::unfinished).toList();
        if (!unfinished.isEmpty()) {
            h.append("<p class=\"alarm\">Not a finding: the compiler of ").append(escape(String.join(", ", unfinished)))
                    .append(" had not finished when its warm-up gave up, so its numbers include JIT work.</p>");
        }
        h.append("</header>\n");

        h.append("<section><h2>Throughput and CPU</h2><p class=\"note\">Every repetition is a dot (shape: which JVM"
                + " start), the bar is the median, the whisker the 95 % interval.</p><div class=\"grid\">");
        chartsStarting(h, "throughput-");
        figure(h, "cpu-per-request");
        h.append("</div></section>\n");

        h.append("<section><h2>Validity checks</h2><ul class=\"checks\">");
        for (Findings.Check c : findings.checks()) {
            h.append("<li class=\"").append(c.passed() ? "pass" : "fail").append("\"><b>")
                    .append(c.passed() ? "✓ " : "✗ ").append(escape(c.name())).append("</b> ")
                    .append(escape(c.detail())).append("</li>");
        }
        h.append("</ul></section>\n");

        h.append("<section><h2>Summary</h2><p class=\"note\">").append(escape(SUMMARY_NOTE))
                .append("</p><div class=\"scroll\"><table><thead><tr><th>users</th><th>variant</th>");
        Findings.METRICS.forEach(m -> h.append("<th>").append(escape(m.heading()))
                .append(m.unit().isEmpty() ? "" : " <small>" + m.unit() + "</small>").append("</th>"));
        h.append("<th>CV</th><th>n (JVMs)</th><th>interval from</th></tr></thead><tbody>");
        for (Findings.Cell c : findings.cells()) {
            h.append("<tr><td>").append(c.level()).append("</td><td>").append(dot(c.variant())).append(c.variant())
                    .append("</td>");
            Findings.METRICS.forEach(m -> h.append("<td>").append(escape(cell(c.metrics().get(m.column()),
                    m.digits()))).append("</td>"));
            Stats.Summary s = c.metrics().get("requests_per_second");
            h.append("<td class=\"").append(s.cv() > Findings.TARGET_CV ? "warn" : "").append("\">")
                    .append(Findings.pct(s.cv())).append("</td><td>").append(s.n()).append(" (").append(s.jvms())
                    .append(")</td><td><small>").append(escape(s.method().words())).append("</small></td></tr>");
        }
        h.append("</tbody></table></div>");
        h.append("<h3>Against the imperative variant</h3><p class=\"note\">Ratios of the two variants' windows of the"
                + " same repetition (measured a minute apart, on the same JVM start index), with the 95 % interval of"
                + " their geometric mean; the JVM start is a level, as above.</p><table><thead><tr><th>users</th>"
                + "<th>variant</th><th>throughput</th><th>p99 latency</th><th>CPU per request</th></tr></thead><tbody>");
        for (int level : findings.data().levels()) {
            for (String v : findings.mainVariants()) {
                if (!v.equals(Findings.BASELINE)) {
                    h.append("<tr><td>").append(level).append("</td><td>").append(dot(v)).append(v).append("</td>");
                    for (String column : List.of("requests_per_second", "p99_ms", "cpu_ms_per_request")) {
                        Stats.Ratio r = findings.ratio(v, Findings.BASELINE, level, column);
                        h.append("<td class=\"").append(r.withinNoise() ? "noise" : "").append("\">")
                                .append(escape(ratioText(r))).append("</td>");
                    }
                    h.append("</tr>");
                }
            }
        }
        h.append("</tbody></table>");
        h.append("<h3>Memory and threads</h3><table><thead><tr><th>users</th><th>variant</th>");
        Findings.MEMORY.forEach(m -> h.append("<th>").append(escape(m.heading()))
                .append(m.unit().isEmpty() ? "" : " <small>" + m.unit() + "</small>").append("</th>"));
        h.append("<th>").append(escape(VIRTUAL_THREADS_HEADING)).append("</th></tr></thead><tbody>");
        for (Findings.Cell c : findings.cells()) {
            h.append("<tr><td>").append(c.level()).append("</td><td>").append(dot(c.variant())).append(c.variant())
                    .append("</td>");
            Findings.MEMORY.forEach(m -> h.append("<td>").append(number(c.metrics().get(m.column()).median(),
                    m.digits())).append("</td>"));
            h.append("<td>").append(virtualThreads(c)).append("</td></tr>");
        }
        h.append("</tbody></table></section>\n");

        if (!findings.splits().isEmpty()) {
            h.append("<section><h2>Stack or threading model?</h2><p class=\"note\">").append(escape(SPLIT_NOTE))
                    .append("</p><table><thead><tr><th>users</th><th>measure</th><th>total</th><th>stack</th>"
                            + "<th>threading model</th><th>stack's share</th></tr></thead><tbody>");
            for (Findings.Split s : findings.splits()) {
                h.append("<tr><td>").append(s.level()).append("</td><td>").append(escape(measure(s)))
                        .append("</td><td>").append(escape(ratioText(s.total()))).append("</td><td>")
                        .append(escape(ratioText(s.stack()))).append("</td><td>").append(escape(ratioText(s.model())))
                        .append("</td><td>").append(Findings.pct(s.stackShare())).append("</td></tr>");
            }
            h.append("</tbody></table></section>\n");
        }

        if (charts.containsKey("where-the-cpu-goes") || !contention().isEmpty()) {
            h.append("<section><h2>Where the CPU goes, and where threads wait</h2>");
            figure(h, "where-the-cpu-goes");
            if (!contention().isEmpty()) {
                h.append("<p class=\"note\">").append(escape(CONTENTION_NOTE)).append("</p><table><thead><tr>"
                        + "<th>variant</th><th>monitor</th><th>site</th><th>waits</th><th>total ms</th>"
                        + "<th>longest ms</th></tr></thead><tbody>");
                contention().forEach((variant, sites) -> sites.stream().limit(3).forEach(s -> h.append("<tr><td>")
                        .append(dot(variant)).append(escape(variant)).append("</td><td><code>")
                        .append(escape(s.path("class").asText())).append("</code></td><td><code>")
                        .append(escape(s.path("site").asText())).append("</code></td><td>")
                        .append(s.path("count").asLong()).append("</td><td>")
                        .append(number(s.path("total_ms").asDouble(), 0)).append("</td><td>")
                        .append(number(s.path("max_ms").asDouble(), 0)).append("</td></tr>")));
                h.append("</tbody></table>");
            }
            h.append("</section>\n");
        }

        h.append("<section><h2>Latency</h2><div class=\"grid\">");
        findings.data().levels().forEach(level -> figure(h, "latency-" + level));
        figure(h, "jfr-overhead");
        h.append("</div></section>\n");

        h.append("<section><h2>Warm-up, and time to peak</h2><p class=\"note\">").append(escape(WARM_UP_NOTE))
                .append("</p><table><thead><tr><th>JVM</th><th>boost</th><th>per level</th><th>finished</th></tr>"
                        + "</thead><tbody>");
        for (JsonNode w : findings.data().warmUps()) {
            h.append("<tr><td>").append(escape(w.path("jvm").asText())).append("</td><td>")
                    .append(number(w.path("boost_seconds").asDouble(), 0)).append(" s</td><td>")
                    .append(escape(levels(w))).append("</td><td class=\"")
                    .append(w.path("finished").asBoolean() ? "" : "warn").append("\">")
                    .append(w.path("finished").asBoolean() ? "yes" : "NO").append("</td></tr>");
        }
        h.append("</tbody></table><div class=\"grid\">");
        List<String> seen = new ArrayList<>();
        for (JsonNode w : findings.data().warmUps()) {
            if (!seen.contains(w.path("variant").asText())) { // one picture per variant: the first JVM's
                seen.add(w.path("variant").asText());
                h.append("<figure class=\"chart\">").append(Charts.warmUp(w, "Warm-up of " + w.path("jvm").asText()))
                        .append("</figure>");
            }
        }
        h.append("</div>");
        if (charts.containsKey("time-to-peak")) {
            h.append("<h3>Time to peak at the quota</h3><p class=\"note\">A fresh JVM of each variant under continuous"
                    + " load at the quota from its start, followed until its compiler finished: what a small container"
                    + " lives with after every start. The compile queue (dashed) shows why.</p>");
            figure(h, "time-to-peak");
            h.append("<table><thead><tr><th>variant</th><th>from JVM start to peak</th><th>peak req/s</th></tr>"
                    + "</thead><tbody>");
            for (JsonNode t : findings.data().timesToPeak()) {
                h.append("<tr><td>").append(dot(t.path("variant").asText())).append(escape(t.path("variant")
                        .asText())).append("</td><td>").append(t.path("seconds_to_peak").isNumber()
                        ? number(t.path("seconds_to_peak").asDouble(), 0) + " s" : "not within the ceiling")
                        .append("</td><td>").append(number(peakRate(t), 0)).append("</td></tr>");
            }
            h.append("</tbody></table>");
        }
        h.append("</section>\n");

        if (!findings.mistakes().isEmpty()) {
            h.append("<section><h2>Common mistakes, measured</h2><p class=\"note\">Each mistake beside the correct"
                    + " variant it spoils, measured in the same run; its signature is what the analysis found in its"
                    + " recording by itself.</p>");
            Map<String, String> texts = mistakeTexts();
            for (Findings.Mistake m : findings.mistakes()) {
                h.append("<article class=\"card\"><h3>").append(escape(m.label())).append(" <small>against ")
                        .append(escape(m.spoils())).append("</small></h3><table><thead><tr><th>users</th>"
                                + "<th>throughput</th><th>p99</th><th>CPU per request</th></tr></thead><tbody>");
                m.costByLevel().forEach((level, r) -> h.append("<tr><td>").append(level).append("</td><td>")
                        .append(escape(ratioText(r[0]))).append("</td><td>").append(escape(ratioText(r[1])))
                        .append("</td><td>").append(escape(ratioText(r[2]))).append("</td></tr>"));
                h.append("</tbody></table><ul>");
                m.evidence().forEach(e -> h.append("<li>").append(escape(e)).append("</li>"));
                if (m.evidence().isEmpty()) {
                    h.append("<li>The analysis flagged nothing in this mistake's recordings.</li>");
                }
                h.append("</ul>");
                inlineLane(h, lane(m.label()));
                String text = texts.get(m.label());
                if (text != null) {
                    h.append("<div class=\"explain\">").append(paragraphs(text)).append("</div>");
                }
                h.append("</article>");
            }
            h.append("</section>\n");
        }

        h.append("<section><h2>Open model</h2>");
        figure(h, "latency-vs-offered-load");
        h.append("</section>\n");

        h.append("<section><h2>Published claims versus this run</h2><table><thead><tr><th>claim</th>"
                + "<th>their setup</th><th>this run</th><th>what differs</th></tr></thead><tbody>");
        for (Findings.Claim c : findings.claims()) {
            h.append("<tr><td>").append(escape(c.claim())).append("<br><small>").append(escape(c.source()))
                    .append("</small></td><td>").append(escape(c.setup())).append("</td><td><b>")
                    .append(escape(ratioText(c.thisRun()))).append("</b><br><small>").append(escape(c.comparison()))
                    .append("; claim ").append(number(c.published(), 2)).append("×</small></td><td>")
                    .append(escape(c.differences())).append("</td></tr>");
        }
        h.append("</tbody></table></section>\n");

        h.append("<section><h2>Where the threads wait</h2>");
        for (String lane : lanes()) {
            inlineLane(h, lane);
        }
        if (lanes().isEmpty()) {
            h.append("<p>No thread analysis in this directory: run <code>./experiment analyze ")
                    .append(escape(findings.data().dir().toString())).append("</code>.</p>");
        }
        h.append("<ul>");
        verdicts().forEach(v -> h.append("<li class=\"").append(v.contains("UNEXPECTED") ? "fail" : "")
                .append("\">").append(escape(v)).append("</li>"));
        h.append("</ul></section>\n");

        h.append("<section><h2>Setup</h2><p>").append(escape(setup())).append("</p>");
        h.append("<details><summary>The schedule, as run</summary><table><thead><tr><th>step</th><th>what</th>"
                + "<th>began at</th><th>took</th></tr></thead><tbody>");
        for (JsonNode step : findings.data().manifest().path("schedule_as_run")) {
            h.append("<tr><td>").append(escape(step.path("kind").asText())).append("</td><td>")
                    .append(escape(step.path("what").asText())).append("</td><td>")
                    .append(number(step.path("started_at_seconds").asDouble(), 0)).append(" s</td><td>")
                    .append(number(step.path("seconds").asDouble(), 0)).append(" s</td></tr>");
        }
        h.append("</tbody></table></details></section>\n");
        h.append("<section><h2>What to open next</h2><ul><li><a href=\"analysis.md\">analysis.md</a>: the thread "
                + "analysis, group by group</li>");
        recordings().forEach(r -> h.append("<li><a href=\"").append(r).append("\">").append(r)
                .append("</a>: open in JDK Mission Control</li>"));
        h.append("<li><code>jfr/compiler/</code>: each JVM's compiler recording, from its start to its end</li>"
                + "<li><code>docs/jfr-in-mission-control.md</code> in the lab: which JMC pages to use, and what "
                + "each variant should look like</li><li><a href=\"results.csv\">results.csv</a>, "
                + "<a href=\"results.json\">results.json</a> and <a href=\"manifest.json\">manifest.json</a>: every"
                + " window, warm-up and knob</li></ul></section>\n");
        h.append("</main><script>document.body.dataset.chartsRendered = [...document.querySelectorAll("
                + "'figure.chart svg')].filter(s => s.getBoundingClientRect().width > 0).length;</script>"
                + "</body></html>\n");
        return h.toString();
    }

    private void chartsStarting(StringBuilder h, String prefix) {
        charts.keySet().stream().filter(k -> k.startsWith(prefix)).forEach(k -> figure(h, k));
    }

    private void figure(StringBuilder h, String name) {
        String svg = charts.get(name);
        if (svg != null) {
            h.append("<figure class=\"chart\" id=\"chart-").append(name).append("\">").append(svg).append("</figure>");
        }
    }

    private void inlineLane(StringBuilder h, String lane) {
        if (lane == null) {
            return;
        }
        try {
            String svg = Files.readString(findings.data().dir().resolve(lane));
            h.append("<figure class=\"lanes\">").append(svg.substring(Math.max(0, svg.indexOf("<svg"))))
                    .append("</figure>");
        } catch (IOException e) {
            h.append("<p class=\"fail\">missing lane picture ").append(escape(lane)).append("</p>");
        }
    }

    private static String paragraphs(String markdown) {
        StringBuilder out = new StringBuilder();
        for (String para : markdown.split("\n\\s*\n")) {
            String text = escape(para.trim()).replaceAll("\\*\\*([^*]+)\\*\\*", "<b>$1</b>")
                    .replaceAll("`([^`]+)`", "<code>$1</code>");
            if (!text.isEmpty()) {
                out.append("<p>").append(text).append("</p>");
            }
        }
        return out.toString();
    }

    private static String dot(String variant) {
        java.awt.Color c = Charts.colour(variant);
        return String.format(Locale.ROOT, "<span class=\"dot\" style=\"background:#%02x%02x%02x\"></span>",
                c.getRed(), c.getGreen(), c.getBlue());
    }

    /** The answer at a glance: each variant against the imperative one at the heaviest load. */
    private String tiles() {
        if (findings.data().levels().isEmpty() || !findings.data().variants().contains(Findings.BASELINE)) {
            return "";
        }
        int level = findings.topLevel();
        StringBuilder t = new StringBuilder("<div class=\"tiles\">");
        for (String v : findings.mainVariants()) {
            if (v.equals(Findings.BASELINE)) {
                continue;
            }
            for (String[] m : new String[][] {{"requests_per_second", "throughput"}, {"cpu_ms_per_request",
                    "CPU per request"}}) {
                Stats.Ratio r = findings.ratio(v, Findings.BASELINE, level, m[0]);
                if (Double.isNaN(r.ratio())) {
                    continue;
                }
                java.awt.Color c = Charts.colour(v);
                t.append("<div class=\"tile").append(findings.unfinished(v) ? " unfinished" : "")
                        .append(String.format(Locale.ROOT, "\" style=\"border-color:#%02x%02x%02x\">", c.getRed(),
                                c.getGreen(), c.getBlue())).append("<div class=\"big\">")
                        .append(number(r.ratio(), 2)).append("×</div><div>").append(escape(v)).append(" ")
                        .append(m[1]).append(" vs imperative at ").append(level).append(" users</div><small>")
                        .append(r.withinNoise() ? "within noise" : "95 % CI " + number(r.low(), 2) + "–"
                                + number(r.high(), 2)).append("</small></div>");
            }
        }
        return t.append("</div>").toString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String CSS = """
            body{margin:0;background:#f6f7f9;color:#1d2330;font:15px/1.5 "DejaVu Sans",system-ui,sans-serif}
            main{max-width:1340px;margin:0 auto;padding:24px 32px 64px}
            header{background:#1d2330;color:#fff;border-radius:12px;padding:24px 28px;margin-bottom:20px}
            header h1{margin:4px 0 12px;font-size:28px}
            .kicker{margin:0;color:#9fb0c8;font-size:13px;letter-spacing:.04em;text-transform:uppercase}
            .headline{margin:6px 0;font-size:15px;color:#d5dce8}
            .alarm{margin:10px 0 0;padding:8px 12px;border-radius:8px;background:#8a1c12;color:#fff;font-weight:600}
            .tiles{display:flex;flex-wrap:wrap;gap:12px;margin:14px 0 10px}
            .tile{background:#283041;border-radius:10px;padding:10px 16px;min-width:200px;border-left:5px solid #888}
            .tile.unfinished{background:#5a1a14}
            .tile .big{font-size:34px;font-weight:700;line-height:1.1} .tile small{color:#9fb0c8}
            section{background:#fff;border-radius:12px;padding:18px 24px;margin:16px 0;box-shadow:0 1px 2px rgba(0,0,0,.06)}
            h2{margin:0 0 12px;font-size:20px} h3{font-size:16px;margin:20px 0 8px}
            .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(580px,1fr));gap:16px}
            figure{margin:0} figure svg{max-width:100%;height:auto}
            .lanes{margin:12px 0;overflow-x:auto}
            table{border-collapse:collapse;width:100%;font-size:13px} th,td{padding:6px 8px;border-bottom:1px solid #e6e8ec;text-align:right;vertical-align:top}
            th:first-child,td:first-child,th:nth-child(2),td:nth-child(2){text-align:left}
            thead th{background:#f0f2f5;font-weight:600}
            .scroll{overflow-x:auto}
            .checks{list-style:none;padding:0;margin:0} .checks li{padding:6px 10px;border-radius:6px;margin:4px 0}
            .pass{background:#eaf6ec} .fail{background:#fdecea} li.fail{color:#8a1c12}
            td.noise{color:#6b7280;font-style:italic} td.warn{color:#8a1c12;font-weight:600}
            .note{color:#5b6472;font-size:13px;margin-top:0}
            .card{border:1px solid #e6e8ec;border-radius:10px;padding:12px 16px;margin:14px 0}
            .explain{color:#2f3746;font-size:14px}
            .dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px}
            details summary{cursor:pointer;color:#1f4f8b}
            small{color:#5b6472}
            """;
}
