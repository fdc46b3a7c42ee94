package io.threadlab.experiment.report;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A run written by the runner at d6f4758 (results format 1: manifest.json, results.json, analysis.json), rendered by
 * this report, against the report that runner wrote from the same files (report-before.md): the same facts.
 *
 * <p>How the facts are compared. Both markdowns are cut into sections at their headings (#, ## and ###); every heading
 * of the old report must be in the new one. Every line of an old section that carries a number (a table row, a
 * bullet, a sentence) is then paired, one to one, with a line of the new section with the same key (for a table row:
 * its first cell with a letter in it, such as the variant, the check or the JVM; any other line: any line that is
 * not a table row) whose numbers include all of the old line's, as a multiset. A number is a run of digits with its
 * decimal points (thousands commas dropped: "1,616" is 1616, "0.200" stays 0.200), so a number that is lost, moved
 * to another row, rounded or formatted differently fails; the words around the numbers may change ("within noise"
 * became "no interval (one repetition)", as there is no interval with one repetition), and new lines, columns and
 * sections may be added. The validity checks are compared by name and result as well.
 *
 * <p>Three changes are intended, each allowed here and no further:
 * <ul>
 * <li>A published claim is compared with this run only at the claim's own regime. The golden run measured 10 ms at 20
 * and 50 users, so the claims made at 100, 500 and 3,000 users now say "not measured at this regime" instead of
 * comparing numbers from another regime. For a claim row that says so, only its first two cells (the claim and its
 * setup) must keep their numbers; the test also asserts which rows these are.</li>
 * <li>A mistake's recordings now count under the mistake. The old report put them under the variant the analysis
 * took them for, the one the mistake spoils: reactive's CPU by layer averaged in blocking-event-loop's recordings,
 * and its contention rows were blocking-event-loop's. So an old contention row of a spoiled variant may be found
 * under its mistake, and an old CPU row of a spoiled variant must be the mean of the new rows of the variant and of
 * its mistake (to the rounding of three decimals).</li>
 * <li>A check with nothing to judge says "not measured", never "passed": the golden run measured one window per cell,
 * and one JVM start per variant, so no cell had a spread and no JVM start another to agree with: its CV check and
 * its JVM-starts check, which passed then on no number at all, are not measured now. Two checks
 * were renamed to say their target ({@link #RENAMED}); they are compared under their new names.</li>
 * </ul>
 */
class GoldenReportTest {

    private static final String GOLDEN = "/golden/run-d6f4758/";
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:[.,]\\d+)*");
    private static final String NOT_MEASURED = "not measured at this regime";
    private static final String CLAIMS = "## Published claims versus this run";
    private static final String CPU = "## Where the CPU goes";
    private static final String CONTENTION = "## Where threads wait for each other";
    /** Checks that passed with nothing to judge, and are not measured now. */
    private static final Map<String, String> NOW_NOT_MEASURED = Map.of("Every cell's throughput CV is at most 5.0 %",
            "not measured", "JVM starts agree", "not measured");
    /** Old check name to new: the target in the name. */
    private static final Map<String, String> RENAMED = Map.of("JVM starts agree", "JVM starts agree within 10.0 %",
            "k6 had headroom", "k6 had headroom (at most 80 % of the CPU left to it)");

    @TempDir
    static Path dir;

    static String before;
    static String after;
    /** Each mistake of the run, with the variant it spoils. */
    static Map<String, String> mistakes;

    @BeforeAll
    static void renderTheGoldenRun() throws IOException {
        for (String file : List.of("manifest.json", "results.json", "analysis.json")) {
            try (InputStream in = GoldenReportTest.class.getResourceAsStream(GOLDEN + file)) {
                Files.copy(in, dir.resolve(file));
            }
        }
        try (InputStream in = GoldenReportTest.class.getResourceAsStream(GOLDEN + "report-before.md")) {
            before = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        after = Files.readString(Report.write(dir).markdown());
        mistakes = Run.read(dir).mistakes();
    }

    @Test
    void everySectionOfTheOldReportIsThere() {
        Map<String, List<String>> old = sections(before);
        assertThat(sections(after).keySet()).containsAll(old.keySet());
        assertThat(old).hasSizeGreaterThan(15);
    }

    @Test
    void everyValidityCheckHasTheSameResultOrSaysItHadNothingToJudge() {
        Map<String, String> old = new LinkedHashMap<>();
        checks(before).forEach((name, result) -> old.put(RENAMED.getOrDefault(name, name),
                NOW_NOT_MEASURED.getOrDefault(name, result)));
        assertThat(old).hasSize(14);
        assertThat(checks(after)).containsAllEntriesOf(old);
        assertThat(checks(before)).containsEntry("Every cell's throughput CV is at most 5.0 %", "passed");
    }

    @Test
    void everyNumberOfEveryLineIsInItsLineOfTheNewReport() {
        Map<String, List<String>> now = sections(after);
        List<String> missing = new ArrayList<>();
        sections(before).forEach((heading, lines) -> {
            List<String> candidates = new ArrayList<>(now.get(heading));
            for (String line : lines) {
                if (numbers(line).isEmpty() || heading.equals(CPU) && mistakes.containsValue(key(line))) {
                    continue; // a spoiled variant's CPU: below
                }
                if (heading.contains("(against ") && !line.startsWith("|") && !line.startsWith("- ")) {
                    continue; // a mistake card's explanation is the gallery's prose (docs/mistakes.md), not the run's
                }
                if (NOW_NOT_MEASURED.containsKey(key(line))) {
                    continue; // it had no number to judge: the cells it listed had no spread
                }
                String match = candidates.stream().filter(l -> sameKey(heading, line, l) && keeps(heading, line, l))
                        .findFirst().orElse(null);
                if (match == null) {
                    missing.add(heading + "\n  " + line);
                } else {
                    candidates.remove(match);
                }
            }
        });
        assertThat(missing).as("old lines whose numbers are not all in a line of the new report").isEmpty();
    }

    @Test
    void onlyTheClaimsMadeAtAnotherRegimeAreNotMeasured() {
        List<String> claims = sections(after).get(CLAIMS).stream().filter(l -> l.startsWith("| ")).skip(1).toList();
        assertThat(claims).hasSize(6);
        assertThat(claims.getFirst()).contains("(Quarkus team, 2022)",
                "reactive / imperative throughput at 50 users: 1.27×").doesNotContain(NOT_MEASURED);
        assertThat(claims.subList(1, 6)).allSatisfy(c -> assertThat(c).contains(NOT_MEASURED));
        assertThat(claims.get(1)).contains("at 10 ms, 100 users: " + NOT_MEASURED
                + " (run ./experiment map --delay-ms 10 --levels 100)");
        assertThat(claims.get(3)).contains("at 300 ms, 3,000 users: " + NOT_MEASURED
                + " (run ./experiment map --delay-ms 300 --levels 3000)");
        // the database's claims, at their own regime only, through Hibernate as the claims' services read it: a run
        // on the delay service does not measure them
        assertThat(claims.get(4)).contains("at the database through Hibernate, 0 ms, 500 users: " + NOT_MEASURED
                + " (run ./experiment run --downstream db --db-access orm --delay-ms 0 --levels 500 --worker-max 500)");
        assertThat(claims.get(5)).contains("(Quarkus team, 2026)", "at the database through Hibernate, 0 ms: "
                + NOT_MEASURED);
    }

    @Test
    void aSpoiledVariantsOldCpuIsTheMeanOfItsOwnAndItsMistakes() {
        List<String> old = sections(before).get(CPU);
        List<String> now = sections(after).get(CPU);
        int checked = 0;
        for (String row : old.stream().filter(r -> mistakes.containsValue(key(r))).toList()) {
            String users = cells(row).get(1);
            String mistake = mistakes.entrySet().stream().filter(m -> m.getValue().equals(key(row))).findFirst()
                    .orElseThrow().getKey();
            List<String> own = cells(row(now, key(row), users));
            List<String> its = cells(row(now, mistake, users));
            for (int column = 2; column < cells(row).size(); column++) {
                double mean = (Double.parseDouble(own.get(column)) + Double.parseDouble(its.get(column))) / 2;
                assertThat(Double.parseDouble(cells(row).get(column))).as(row).isCloseTo(mean, within(0.0011));
                checked++;
            }
        }
        assertThat(checked).isEqualTo(2 * 11); // reactive at 20 and 50 users: ten layers and the total
    }

    private static String row(List<String> rows, String variant, String users) {
        return rows.stream().filter(r -> r.startsWith("| " + variant + " | " + users + " |")).findFirst()
                .orElseThrow(() -> new AssertionError("no row of " + variant + " at " + users + " users"));
    }

    /** The same first cell (a check's new name); an old contention row of a spoiled variant may be its mistake's. */
    private static boolean sameKey(String heading, String old, String now) {
        return key(now).equals(RENAMED.getOrDefault(key(old), key(old)))
                || heading.equals(CONTENTION) && key(old).equals(mistakes.get(key(now)));
    }

    /** Whether {@code now} keeps every number of {@code old}; a claim not measured at its regime keeps its own. */
    private static boolean keeps(String heading, String old, String now) {
        if (heading.equals(CLAIMS) && now.contains(NOT_MEASURED)) {
            List<String> cells = cells(old);
            return contains(numbers(now), numbers(cells.get(0) + " " + cells.get(1)));
        }
        return contains(numbers(now), numbers(old));
    }

    private static boolean contains(List<String> all, List<String> some) {
        Map<String, Integer> left = new HashMap<>();
        all.forEach(n -> left.merge(n, 1, Integer::sum));
        for (String n : some) {
            if (left.merge(n, -1, Integer::sum) < 0) {
                return false;
            }
        }
        return true;
    }

    private static List<String> numbers(String line) {
        List<String> numbers = new ArrayList<>();
        Matcher m = NUMBER.matcher(line);
        while (m.find()) {
            numbers.add(m.group().replace(",", ""));
        }
        return numbers;
    }

    /** A table row's first cell with a letter in it; "" for any other line. */
    private static String key(String line) {
        return line.startsWith("| ") ? cells(line).stream().filter(c -> c.matches(".*[A-Za-z].*")).findFirst()
                .orElse("") : "";
    }

    private static List<String> cells(String row) {
        return List.of(row.substring(2, row.length() - 2).split(" \\| ", -1));
    }

    /** Heading → its lines, without the table separators. */
    private static Map<String, List<String>> sections(String markdown) {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : markdown.lines().toList()) {
            if (line.startsWith("#")) {
                current = sections.computeIfAbsent(line, h -> new ArrayList<>());
            } else if (current != null && !line.isBlank() && !line.startsWith("|---")) {
                current.add(line);
            }
        }
        return sections;
    }

    /** Check → "passed", "**FAILED**" or "not measured". */
    private static Map<String, String> checks(String markdown) {
        Map<String, String> checks = new LinkedHashMap<>();
        sections(markdown).get("## Validity checks").stream().filter(l -> l.startsWith("| ")).skip(1)
                .forEach(row -> checks.put(cells(row).get(0), cells(row).get(1)));
        return checks;
    }
}
