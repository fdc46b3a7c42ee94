package io.threadlab.experiment.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code report}: report.md and a self-contained report.html (inline SVG and CSS, no network) from a results
 * directory. Needs no running service. Charts are also written to {@code charts/*.svg}.
 */
public final class Report {

    private final Findings findings;
    private final Map<String, String> charts;

    private Report(Findings findings) {
        this.findings = findings;
        this.charts = Charts.all(findings);
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
        return String.format(Locale.ROOT, "Quarkus %s on %s (JDK %s), %s, %s (%d cores, %s MB). Each variant ran in "
                        + "its own JVM confined to %s CPU by %s; the delay service (asked for %s) %s. JVM flags for every "
                        + "service: %s. Knobs: %s. Closed model at %s users, %s s windows after a %s s settle phase, "
                        + "%s repetitions in rotated order, after a warm-up until throughput was steady and the JIT quiet."
                        + " Git %s%s.",
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
                d.manifestText("plan", "repetitions"), abbreviate(d.manifestText("lab", "git_sha")),
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

    /** Median [interval]; every reported quantity is non-negative, so the interval is cut at 0. */
    private static String cell(Stats.Summary s, int digits) {
        if (s.n() == 0) {
            return "–";
        }
        String low = number(Math.max(0, s.low()), digits);
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
            StringBuilder line = new StringBuilder(r.path("window").asText()).append(": ");
            List<String> said = new ArrayList<>();
            r.path("unexpected").forEach(u -> said.add("UNEXPECTED: " + u.asText()));
            r.path("verdicts").forEach(v -> said.add(v.asText()));
            lines.add(line.append(String.join("; ", said)).toString());
        }));
        return lines;
    }

    // ---- markdown ------------------------------------------------------------------------------------------------

    String markdown() {
        StringBuilder md = new StringBuilder("# Worker threads, event loop or virtual threads: what this run measured\n\n");
        findings.headline().forEach(h -> md.append("**").append(h).append("**\n\n"));
        md.append("## Setup\n\n").append(setup()).append("\n\n");
        md.append("## Validity checks\n\n| check | result | detail |\n|---|---|---|\n");
        for (Findings.Check c : findings.checks()) {
            md.append("| ").append(c.name()).append(" | ").append(c.passed() ? "passed" : "**FAILED**").append(" | ")
                    .append(c.detail()).append(" |\n");
        }
        md.append("\n## Summary\n\nMedian over repetitions, [95 % CI of the mean, Student t]. CV = coefficient of "
                + "variation of throughput across repetitions.\n\n| users | variant | ");
        Findings.METRICS.forEach(m -> md.append(m.heading()).append(m.unit().isEmpty() ? "" : " (" + m.unit() + ")")
                .append(" | "));
        md.append("CV |\n|---|---|");
        Findings.METRICS.forEach(m -> md.append("---:|"));
        md.append("---:|\n");
        for (Findings.Cell c : findings.cells()) {
            md.append("| ").append(c.level()).append(" | ").append(c.variant()).append(" | ");
            Findings.METRICS.forEach(m -> md.append(cell(c.metrics().get(m.column()), m.digits())).append(" | "));
            md.append(number(c.metrics().get("requests_per_second").cv() * 100, 1)).append(" % |\n");
        }
        md.append("\n## Against the imperative variant\n\n| users | variant | throughput | p99 | CPU per request |\n"
                + "|---|---|---|---|---|\n");
        for (int level : findings.data().levels()) {
            for (String v : findings.data().variants()) {
                if (!v.equals(Findings.BASELINE)) {
                    md.append("| ").append(level).append(" | ").append(v).append(" | ")
                            .append(ratioText(findings.ratio(v, Findings.BASELINE, level, "requests_per_second")))
                            .append(" | ").append(ratioText(findings.ratio(v, Findings.BASELINE, level, "p99_ms")))
                            .append(" | ").append(ratioText(findings.ratio(v, Findings.BASELINE, level,
                                    "cpu_ms_per_request"))).append(" |\n");
                }
            }
        }
        md.append("\n## Charts\n\n");
        charts.keySet().forEach(name -> md.append("![").append(name).append("](charts/").append(name)
                .append(".svg)\n\n"));
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
        md.append("- `docs/jfr-in-mission-control.md` in the lab: how to read them\n");
        return md.toString();
    }

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
        h.append("</header>\n");

        h.append("<section><h2>Validity checks</h2><ul class=\"checks\">");
        for (Findings.Check c : findings.checks()) {
            h.append("<li class=\"").append(c.passed() ? "pass" : "fail").append("\"><b>")
                    .append(c.passed() ? "✓ " : "✗ ").append(escape(c.name())).append("</b> ")
                    .append(escape(c.detail())).append("</li>");
        }
        h.append("</ul></section>\n");

        h.append("<section><h2>Throughput, latency, CPU</h2><div class=\"grid\">");
        charts.forEach((name, svg) -> h.append("<figure class=\"chart\" id=\"chart-").append(name).append("\">")
                .append(svg).append("</figure>"));
        h.append("</div></section>\n");

        h.append("<section><h2>Summary</h2><p class=\"note\">Median over repetitions, with the 95 % confidence "
                + "interval of the mean (Student t) in brackets; CV: throughput's coefficient of variation across "
                + "repetitions.</p><div class=\"scroll\"><table><thead><tr><th>users</th><th>variant</th>");
        Findings.METRICS.forEach(m -> h.append("<th>").append(escape(m.heading()))
                .append(m.unit().isEmpty() ? "" : " <small>" + m.unit() + "</small>").append("</th>"));
        h.append("<th>CV</th></tr></thead><tbody>");
        for (Findings.Cell c : findings.cells()) {
            h.append("<tr><td>").append(c.level()).append("</td><td><span class=\"dot ").append(c.variant())
                    .append("\"></span>").append(c.variant()).append("</td>");
            Findings.METRICS.forEach(m -> h.append("<td>").append(escape(cell(c.metrics().get(m.column()),
                    m.digits()))).append("</td>"));
            h.append("<td>").append(number(c.metrics().get("requests_per_second").cv() * 100, 1)).append(" %</td></tr>");
        }
        h.append("</tbody></table></div>");
        h.append("<h3>Against the imperative variant</h3><table><thead><tr><th>users</th><th>variant</th>"
                + "<th>throughput</th><th>p99 latency</th><th>CPU per request</th></tr></thead><tbody>");
        for (int level : findings.data().levels()) {
            for (String v : findings.data().variants()) {
                if (!v.equals(Findings.BASELINE)) {
                    h.append("<tr><td>").append(level).append("</td><td>").append(v).append("</td>");
                    for (String column : List.of("requests_per_second", "p99_ms", "cpu_ms_per_request")) {
                        Stats.Ratio r = findings.ratio(v, Findings.BASELINE, level, column);
                        h.append("<td class=\"").append(r.withinNoise() ? "noise" : "").append("\">")
                                .append(escape(ratioText(r))).append("</td>");
                    }
                    h.append("</tr>");
                }
            }
        }
        h.append("</tbody></table></section>\n");

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
            try {
                String svg = Files.readString(findings.data().dir().resolve(lane));
                h.append("<figure class=\"lanes\">").append(svg.substring(Math.max(0, svg.indexOf("<svg"))))
                        .append("</figure>");
            } catch (IOException e) {
                h.append("<p class=\"fail\">missing lane picture ").append(escape(lane)).append("</p>");
            }
        }
        if (lanes().isEmpty()) {
            h.append("<p>No thread analysis in this directory: run <code>./experiment analyze ")
                    .append(escape(findings.data().dir().toString())).append("</code>.</p>");
        }
        h.append("<ul>");
        verdicts().forEach(v -> h.append("<li class=\"").append(v.contains("UNEXPECTED") ? "fail" : "")
                .append("\">").append(escape(v)).append("</li>"));
        h.append("</ul></section>\n");

        h.append("<section><h2>Setup</h2><p>").append(escape(setup())).append("</p></section>\n");
        h.append("<section><h2>What to open next</h2><ul><li><a href=\"analysis.md\">analysis.md</a>: the thread "
                + "analysis, group by group</li>");
        recordings().forEach(r -> h.append("<li><a href=\"").append(r).append("\">").append(r)
                .append("</a>: open in JDK Mission Control</li>"));
        h.append("<li><code>docs/jfr-in-mission-control.md</code> in the lab: which JMC pages to use, and what "
                + "each variant should look like</li><li><a href=\"results.csv\">results.csv</a> and "
                + "<a href=\"manifest.json\">manifest.json</a>: every window and every knob</li></ul></section>\n");
        h.append("</main><script>document.body.dataset.chartsRendered = [...document.querySelectorAll("
                + "'figure.chart svg')].filter(s => s.getBoundingClientRect().width > 0).length;</script>"
                + "</body></html>\n");
        return h.toString();
    }

    /** The answer at a glance: each variant against the imperative one at the heaviest load. */
    private String tiles() {
        List<Integer> levels = findings.data().levels();
        if (levels.isEmpty() || !findings.data().variants().contains(Findings.BASELINE)) {
            return "";
        }
        int level = levels.stream().mapToInt(i -> i).max().getAsInt();
        StringBuilder t = new StringBuilder("<div class=\"tiles\">");
        for (String v : findings.data().variants()) {
            if (v.equals(Findings.BASELINE)) {
                continue;
            }
            for (String[] m : new String[][] {{"requests_per_second", "throughput"}, {"cpu_ms_per_request",
                    "CPU per request"}}) {
                Stats.Ratio r = findings.ratio(v, Findings.BASELINE, level, m[0]);
                if (Double.isNaN(r.ratio())) {
                    continue;
                }
                t.append("<div class=\"tile ").append(v).append("\"><div class=\"big\">")
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
            .tiles{display:flex;flex-wrap:wrap;gap:12px;margin:14px 0 10px}
            .tile{background:#283041;border-radius:10px;padding:10px 16px;min-width:200px;border-left:5px solid #888}
            .tile .big{font-size:34px;font-weight:700;line-height:1.1} .tile small{color:#9fb0c8}
            .tile.reactive{border-color:#1f77b4} .tile.virtual-thread{border-color:#2ca02c}
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
            td.noise{color:#6b7280;font-style:italic}
            .note{color:#5b6472;font-size:13px;margin-top:0}
            .dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px}
            .dot.imperative{background:#d62728} .dot.reactive{background:#1f77b4} .dot.virtual-thread{background:#2ca02c}
            small{color:#5b6472}
            """;
}
