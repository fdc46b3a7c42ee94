package io.threadlab.experiment.predict;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * {@code ./experiment predict}'s answer for a reader: one row per variant, every ceiling beside the one that binds,
 * then whose calibration each came from and what it assumes beyond it.
 */
public final class ForecastTable {

    private static final String[] HEADER = {"variant", "users", "delay", "CPUs", "req/s", "interval", "error",
        "binding", "margin", "p50 ms", "RSS MB", "k6 CPU", "|", "CPU", "workers", "connections", "users", "load"};
    /** The columns of words, aligned left; numbers align right. */
    private static final Set<Integer> WORDS = Set.of(0, 5, 6, 7, 8, 12);
    /** Where the lines below the table wrap. */
    private static final int WIDTH = 118;

    private ForecastTable() {
    }

    public static String of(Path dir, List<VariantForecast> forecasts, List<String> leftOut) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        forecasts.forEach(v -> rows.add(row(v)));
        StringBuilder out = new StringBuilder("Predicted from the calibrations in ").append(dir).append("\n\n");
        int[] widths = new int[HEADER.length];
        rows.forEach(r -> {
            for (int i = 0; i < r.length; i++) {
                widths[i] = Math.max(widths[i], r[i].length());
            }
        });
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                String cell = WORDS.contains(i) ? pad(r[i], widths[i]) : padLeft(r[i], widths[i]);
                line.append(i == 0 ? "" : "  ").append(cell);
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        out.append('\n');
        for (VariantForecast v : forecasts) {
            out.append(wrap(v.variant() + ": " + calibratedOn(v), ""));
            v.notes().forEach(n -> out.append(wrap("  - " + n, "    ")));
        }
        leftOut.forEach(l -> out.append(wrap("left out: " + l, "  ")));
        out.append('\n').append(wrap("req/s: the lowest ceiling; after the |, every ceiling in req/s (load: what k6"
                + " can drive on the cores it shares with the service). interval and error: where req/s should land,"
                + " ± the error its ceiling earned in the calibration (each level predicted from the others before it"
                + " was seen), wider beyond the calibrated users and delays (extrapolated). margin: the next ceiling"
                + " over the binding one (below " + Forecast.CLEAR_MARGIN + "× two bind nearly together; \"close\":"
                + " within their errors, either may bind). p50: users ÷ req/s, the closed model's response time. RSS:"
                + " a straight line in the users through the calibration's. k6 CPU: what the load generator will need"
                + " at req/s, ± the error its calibration earned (each window left out in turn, the worst miss), wider"
                + " beyond the calibrated users.", ""));
        return out.toString();
    }

    private static String[] row(VariantForecast v) {
        Forecast f = v.forecast();
        Point at = v.at();
        return new String[] {v.variant(), String.format(Locale.ROOT, "%,d", at.get(Axis.USERS)),
            at.get(Axis.DELAY_MS) + " ms", Forecast.number(at.get(Axis.CPUS)), rate(f.rps()),
            rate(f.low()) + "–" + rate(f.high()),
            f.spread() + (f.extrapolated() ? " extrapolated" : ""),
            f.binding().label(), String.format(Locale.ROOT, "%.2f× %s%s", f.margin(), f.next().label(),
                    f.twoClose() ? " close" : ""),
            String.format(Locale.ROOT, "%,.1f", f.p50Ms()), f.rssMb() == null ? "–"
                    : String.format(Locale.ROOT, "%,.0f", f.rssMb()),
            Double.isNaN(f.k6Cores()) ? "–" : String.format(Locale.ROOT, "%.2f", f.k6Cores())
                    + (!Double.isNaN(f.k6Error()) ? String.format(Locale.ROOT, " ±%.0f %%", f.k6Error() * 100) : ""),
            "|", ceiling(f, Ceiling.CPU), ceiling(f, Ceiling.WORKERS), ceiling(f, Ceiling.CONNECTIONS),
            ceiling(f, Ceiling.USERS), ceiling(f, Ceiling.LOAD)};
    }

    /** "imperative-jvm1 at 10 ms, 0.5 CPU, 200 workers, pool 1,000: 700, 300, 150 and 10 users (…)". */
    private static String calibratedOn(VariantForecast v) {
        Calibrated c = v.calibrated();
        CapacityModel m = v.model();
        Point setup = c.setup();
        List<String> knobs = new ArrayList<>();
        knobs.add(ForecastNotes.delays(m.delays()));
        knobs.add(Forecast.number(setup.get(Axis.CPUS)) + " CPU");
        if (setup.has(Axis.WORKER_MAX)) {
            knobs.add(setup.get(Axis.WORKER_MAX) + " workers");
        }
        if (setup.has(Axis.POOL_SIZE)) {
            knobs.add(String.format(Locale.ROOT, "pool %,d", setup.get(Axis.POOL_SIZE)));
        }
        boolean several = m.delays().size() > 1;
        String cpu = IntStream.range(0, m.users().size()).mapToObj(i -> String.format(Locale.ROOT,
                "%.3f at %,d%s (%,.0f waiting in the JVM, %,.0f calls out)", m.cpuMsPerRequest().get(i),
                m.users().get(i), several ? " × " + m.levelDelays().get(i) + " ms" : "", m.inJvm().get(i),
                m.inFlight().get(i))).collect(Collectors.joining(", "));
        return String.format(Locale.ROOT, "calibrated on %s (%s) at %s users; CPU ms per request %s%s; %.1f ms"
                        + " above the delay%s.", c.jvm(), String.join(", ", knobs),
                c.users().stream().map(u -> String.format(Locale.ROOT, "%,d", u)).collect(Collectors.joining(", ")),
                cpu, m.saturated() ? "" : " (no level saturated the quota)", m.overheadMs(),
                m.overheadMeasured() ? "" : " (a lower bound)");
    }

    /** {@code text} in lines of at most {@link #WIDTH} characters, the later ones indented by {@code indent}. */
    static String wrap(String text, String indent) {
        String lead = text.substring(0, text.length() - text.stripLeading().length());
        StringBuilder out = new StringBuilder();
        StringBuilder line = new StringBuilder(lead);
        boolean empty = true;
        for (String word : text.strip().split(" +")) {
            if (!empty && line.length() + 1 + word.length() > WIDTH) {
                out.append(line).append('\n');
                line = new StringBuilder(indent);
                empty = true;
            }
            line.append(empty ? "" : " ").append(word);
            empty = false;
        }
        return out.append(line).append('\n').toString();
    }

    private static String ceiling(Forecast f, Ceiling c) {
        Double rps = f.ceilings().get(c);
        return rps == null ? "–" : rate(rps);
    }

    private static String rate(double rps) {
        return String.format(Locale.ROOT, "%,.0f", rps);
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }

    private static String padLeft(String s, int width) {
        return " ".repeat(width - s.length()) + s;
    }
}
