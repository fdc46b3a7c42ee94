package io.threadlab.experiment;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.FanOutMode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The docs' flag tables (docs/running.md, docs/predict.md; any page of README.md and docs/ with one) say what
 * {@code ./experiment run}, {@code map} and {@code predict} do without each flag; this holds them to the code, so that
 * a renamed flag or a changed default cannot leave the docs behind.
 *
 * <p>How a table is read. A flag table is a markdown table whose first header cell is {@code Flag}; the command it
 * documents is the first {@code `./experiment <command> --help`} after it. A row's first cell names its flags in
 * backticks ({@code `--window`, `--settle`}); its second cell states their defaults: the backticked words in it that
 * are neither a flag nor {@code .env} are the defaults, one per flag that takes a value, in the flags' order; words
 * outside backticks are prose for the reader (units, "off", "from .env", "the machine's CPUs") and not compared. A
 * row whose default is prose only ({@code --warmup-cpus}: "the machine's CPUs", which differs between machines)
 * is checked for its flags, not its default. A default may elide the middle of a list with {@code …}.
 *
 * <p>What the code's default is. Not the help text but what the command does: the subcommand is parsed with no
 * arguments through the real CLI (so .env's defaults apply, as for a user), its plan is built, and each flag's
 * default is read from the plan (or, for the options no plan holds, from the option itself). Values are compared
 * word by word, as numbers where both are numbers ({@code 1.0} is {@code 1}), else as text.
 *
 * <p>Every flag of {@code --help} must be in its command's table, except that map's table may leave out a flag
 * that defaults in map exactly as in run: the README says those are run's.
 *
 * <p>{@code ./experiment predict} has no plan: each of its defaults is the calibration's own, which only the results
 * directory knows, so its table states them in prose and is checked for its flags (every one of {@code --help}, none
 * that is not one), not for their defaults.
 */
class ReadmeFlagTablesTest {

    private static final Path LAB = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern TICKED = Pattern.compile("`([^`]+)`");
    private static final Pattern HELP = Pattern.compile("`\\./experiment (\\w+) --help`");

    /** A command parsed with no arguments: its plan, and its options for what the plan does not hold. */
    private record Parsed(ExperimentPlan plan, PipelineOptions options, Object command) {
    }

    /** Each flag that takes a value, and where its default shows once the command is parsed. */
    private static final Map<String, Function<Parsed, Object>> CODE_DEFAULTS = Map.ofEntries(
            entry("--variants", p -> p.plan().variants()),
            entry("--levels", p -> p.plan().levels()),
            entry("--delay-ms", p -> p.plan().delays()),
            entry("--jvm-starts", p -> p.plan().jvmStarts()),
            entry("--repetitions", p -> p.plan().repetitionsPerJvm()),
            entry("--window", p -> p.plan().timing().windowSeconds()),
            entry("--settle", p -> p.plan().timing().settleSeconds()),
            entry("--settle-max", p -> p.plan().timing().settleMaxSeconds()),
            entry("--warmup-cpus", p -> p.plan().warmUp().boostCpus()),
            entry("--warmup-boost-max", p -> p.plan().warmUp().boostMaxSeconds()),
            entry("--warmup-level-max", p -> p.plan().warmUp().levelMaxSeconds()),
            // the plan holds it only where the time to peak is measured: the option's own
            entry("--time-to-peak-max", p -> ((RunCommand) p.command()).timeToPeakMax),
            entry("--open-rates", p -> p.plan().open().rates()),
            // the closed model's unless asked; a burst's size, where the run is one
            entry("--shape", p -> ((RunCommand) p.command()).shape),
            entry("--requests", p -> PlannedRun.run("--shape", "burst").bursts()),
            entry("--open-shares", p -> p.plan().open().shares()),
            entry("--open-step", p -> p.plan().open().stepSeconds()),
            entry("--jfr-settings", p -> LAB.relativize(p.options().jfrSettings(LAB))),
            entry("--cpus", p -> p.plan().knobs().cpuQuota()),
            entry("--heap", p -> p.plan().knobs().heap()),
            entry("--gc", p -> p.plan().knobs().gc()),
            entry("--k6-gogc", p -> p.plan().knobs().k6Environment().get("GOGC")),
            entry("--k6-memory-limit", p -> p.plan().knobs().k6Environment().get("GOMEMLIMIT")),
            entry("--pool-size", p -> p.plan().knobs().connectionPoolSize()),
            entry("--worker-max", p -> p.plan().knobs().workerPoolMax()),
            entry("--connect-timeout-ms", p -> p.plan().knobs().connectTimeoutMs()),
            entry("--read-timeout-ms", p -> p.plan().knobs().readTimeoutMs()),
            // predict has no options of run's: its default is the delay service's calibration
            entry("--downstream", p -> p.options() == null ? List.of("http")
                    : p.options().axes().downstreams().stream().map(d -> d.label()).toList()),
            entry("--fan-out", p -> p.plan() == null || p.plan().grid().values(Axis.FAN_OUT).isEmpty() ? List.of(1)
                    : p.plan().grid().values(Axis.FAN_OUT)),
            entry("--db-access", p -> p.plan() == null || p.plan().grid().values(Axis.DB_ACCESS).isEmpty()
                    ? List.of("jdbc") : p.plan().grid().values(Axis.DB_ACCESS).stream()
                    .map(io.threadlab.experiment.plan.DbAccess::label).toList()),
            entry("--fan-out-mode", p -> p.plan() == null || p.plan().grid().values(Axis.FAN_OUT_MODE).isEmpty()
                    ? List.of("parallel") : p.plan().grid().values(Axis.FAN_OUT_MODE).stream()
                    .map(FanOutMode::label).toList()),
            entry("--db-pool-size", p -> AxisOptions.given(p.options().spec, AxisOptions.Command.RUN)
                    .valuesOrDefault(Axis.DB_POOL_SIZE)),
            entry("--db-cpus", p -> AxisOptions.given(p.options().spec, AxisOptions.Command.RUN)
                    .valuesOrDefault(Axis.DB_CPUS)),
            entry("--db-max-connections", p -> AxisOptions.given(p.options().spec, AxisOptions.Command.RUN)
                    .valuesOrDefault(Axis.DB_MAX_CONNECTIONS)),
            entry("--output", p -> p.options().output),
            entry("--engine", p -> p.options().engine),
            // none: DOCKER_HOST and DOCKER_CONTEXT then decide, as for the docker CLI (the README says so in prose)
            entry("--docker-host", p -> String.valueOf(p.options().dockerHost)),
            entry("--docker-context", p -> String.valueOf(p.options().dockerContext)),
            entry("--load-host", p -> String.valueOf(p.options().loadHost)),
            entry("--max-jvm-starts", p -> p.plan().precision().maxJvmStarts()),
            entry("--budget", p -> p.plan().precision().budget() == null ? "off"
                    : p.plan().precision().budget().toMinutes() + "m"),
            entry("--calibration-levels", p -> Arrays.asList(p.plan().calibration().stages().stream()
                    .map(s -> s.levels().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")))
                    .collect(java.util.stream.Collectors.joining("/")).split(","))),
            entry("--calibration-delay-ms", p -> p.plan().calibration().delays()),
            entry("--load-cpus", p -> p.plan().placement().name().toLowerCase(java.util.Locale.ROOT)));

    private record Row(String line, List<String> flags, String defaults) {
    }

    @Test
    void runsTableHasEveryFlagOfRunWithTheDefaultRunUses() throws IOException {
        checkTable("run");
    }

    @Test
    void mapsTableHasEveryFlagOfMapWhoseDefaultIsNotRunsWithTheDefaultMapUses() throws IOException {
        checkTable("map");
    }

    @Test
    void predictsTableHasEveryFlagOfPredict() throws IOException {
        checkTable("predict");
    }

    private void checkTable(String command) throws IOException {
        List<Row> rows = tables().get(command);
        assertThat(rows).as("the docs have a flag table followed by `./experiment %s --help`", command).isNotNull();
        CommandSpec spec = subcommand(command).getCommandSpec();
        Parsed parsed = parse(command);
        List<String> documented = new ArrayList<>();
        for (Row row : rows) {
            String where = row.line() + ", " + command + "'s flag table";
            assertThat(row.flags()).as("%s: a row names its flags in backticks", where).isNotEmpty();
            List<OptionSpec> valued = new ArrayList<>();
            for (String flag : row.flags()) {
                OptionSpec option = spec.findOption(flag);
                assertThat(option).as("%s: %s is a flag of `./experiment %s`", where, flag, command).isNotNull();
                assertThat(option.hidden()).as("%s: %s is hidden from --help (renamed)", where, flag).isFalse();
                documented.add(flag);
                if (option.arity().max() == 0) {
                    assertThat(option.initialValue()).as("%s: %s is off unless given", where, flag)
                            .isEqualTo(Boolean.FALSE);
                } else {
                    valued.add(option);
                }
            }
            if (valued.isEmpty()) {
                assertThat(row.defaults().trim()).as("%s: the default of %s", where, row.flags()).isEqualTo("off");
                continue;
            }
            List<String> stated = statedDefaults(row.defaults());
            if (stated.isEmpty()) {
                continue; // a default in prose only: see the class comment
            }
            assertThat(stated).as("%s: one default per flag that takes a value (%s)", where,
                    valued.stream().map(OptionSpec::longestName).toList()).hasSameSizeAs(valued);
            for (int i = 0; i < valued.size(); i++) {
                String flag = valued.get(i).longestName();
                List<String> code = words(codeDefault(parsed, flag));
                if (!matches(stated.get(i), code)) {
                    fail("%s: %s's default is `%s`, but `./experiment %s` uses %s", where, flag, stated.get(i),
                            command, String.join(",", code));
                }
            }
        }

        Parsed run = parse("run");
        for (OptionSpec option : spec.options()) {
            String flag = option.longestName();
            if (option.hidden() || option.usageHelp() || option.versionHelp() || documented.contains(flag)) {
                continue;
            }
            assertThat(command).as("The docs: %s's flag table lacks %s, which `./experiment %s --help` lists",
                    command, flag, command).isEqualTo("map");
            // Left to run's table: then map must default as run does, and run's table must have it.
            assertThat(subcommand("run").getCommandSpec().findOption(flag))
                    .as("The docs: map's flag table lacks %s, which run does not have", flag).isNotNull();
            if (option.arity().max() > 0) {
                assertThat(words(codeDefault(parsed, flag)))
                        .as("The docs: map's flag table lacks %s, whose default in map is not run's", flag)
                        .isEqualTo(words(codeDefault(run, flag)));
            }
        }
    }

    /** The flag tables of README.md and the pages in docs/, by the command each documents. */
    private static Map<String, List<Row>> tables() throws IOException {
        Map<String, List<Row>> tables = new LinkedHashMap<>();
        List<Path> pages = new ArrayList<>(List.of(LAB.resolve("README.md")));
        try (var docs = Files.list(LAB.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        for (Path page : pages) {
            tables(LAB.relativize(page).toString(), Files.readAllLines(page), tables);
        }
        return tables;
    }

    private static void tables(String file, List<String> lines, Map<String, List<Row>> tables) {
        for (int i = 0; i < lines.size(); i++) {
            if (!cells(lines.get(i)).getFirst().equals("Flag") || i + 1 >= lines.size()
                    || !lines.get(i + 1).startsWith("|---")) {
                continue;
            }
            List<Row> rows = new ArrayList<>();
            int end = i + 2;
            for (; end < lines.size() && lines.get(end).startsWith("|"); end++) {
                List<String> cells = cells(lines.get(end));
                rows.add(new Row(file + ":" + (end + 1), ticked(cells.get(0)).stream().filter(w -> w.startsWith("--")).toList(),
                        cells.get(1)));
            }
            String command = null;
            for (int j = end; command == null && j < lines.size() && !lines.get(j).startsWith("|")
                    && !lines.get(j).startsWith("#"); j++) {
                Matcher help = HELP.matcher(lines.get(j));
                command = help.find() ? help.group(1) : null;
            }
            assertThat(command).as("%s:%d: a flag table followed by `./experiment <command> --help`", file, i + 1)
                    .isNotNull();
            assertThat(tables.put(command, rows)).as("%s: one flag table for %s in all the docs", file, command)
                    .isNull();
            i = end;
        }
    }

    private static List<String> cells(String line) {
        if (!line.startsWith("|")) {
            return List.of("");
        }
        return Arrays.stream(line.substring(1).split("\\|")).map(String::trim).toList();
    }

    private static List<String> ticked(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = TICKED.matcher(text);
        while (m.find()) {
            words.add(m.group(1));
        }
        return words;
    }

    /** The backticked words of a default cell that are values: not a flag, not the name of the .env file. */
    private static List<String> statedDefaults(String cell) {
        return ticked(cell).stream().filter(w -> !w.startsWith("--") && !w.equals(".env")).toList();
    }

    private static CommandLine subcommand(String command) {
        return new CommandLine(new ExperimentCommand()).getSubcommands().get(command);
    }

    /** The command as a user gets it: the real CLI, its defaults from .env, no arguments. */
    private static Parsed parse(String command) {
        if (command.equals("predict")) {
            return new Parsed(null, null, null); // no plan, and --from is required: defaults in prose (the class comment)
        }
        CommandLine cli = new CommandLine(new ExperimentCommand());
        cli.parseArgs(command);
        return switch ((Object) cli.getSubcommands().get(command).getCommand()) {
            case RunCommand run -> new Parsed(run.plan(), run.options, run);
            case MapCommand map -> new Parsed(map.plan(), map.options, map);
            default -> throw new AssertionError("no plan for " + command);
        };
    }

    private static Object codeDefault(Parsed parsed, String flag) {
        Function<Parsed, Object> read = CODE_DEFAULTS.get(flag);
        if (read == null) {
            throw new AssertionError("this test does not know where " + flag + "'s default shows: add it to "
                    + "CODE_DEFAULTS");
        }
        return read.apply(parsed);
    }

    /** The code's value as the README writes it: a list's elements, a variant by its label. */
    private static List<String> words(Object value) {
        return value instanceof Collection<?> c ? c.stream().map(String::valueOf).toList()
                : List.of(String.valueOf(value));
    }

    /** Whether the README's {@code stated} default is {@code code}; {@code …} stands for the middle of a list. */
    private static boolean matches(String stated, List<String> code) {
        List<String> words = Arrays.stream(stated.split(",")).map(String::trim).toList();
        int gap = words.indexOf("…");
        if (gap < 0) {
            return same(words, code);
        }
        List<String> head = words.subList(0, gap);
        List<String> tail = words.subList(gap + 1, words.size());
        return code.size() > head.size() + tail.size() && same(head, code.subList(0, head.size()))
                && same(tail, code.subList(code.size() - tail.size(), code.size()));
    }

    private static boolean same(List<String> stated, List<String> code) {
        if (stated.size() != code.size()) {
            return false;
        }
        for (int i = 0; i < stated.size(); i++) {
            BigDecimal a = number(stated.get(i));
            BigDecimal b = number(code.get(i));
            if (a != null && b != null ? a.compareTo(b) != 0 : !stated.get(i).equals(code.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static BigDecimal number(String word) {
        try {
            return new BigDecimal(word);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
