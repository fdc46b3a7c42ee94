package io.threadlab.experiment;

import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Accepts;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.report.Report;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.threadlab.experiment.PlannedRun.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/extending.md's recipe for a new axis, proven: a toy axis declared here, in test scope, and registered for the
 * test alone, reaches the commands' options, the plan and its windows' requests and names, results.csv and the
 * report, with nothing else changed.
 */
class ExtendingTheLabTest {

    /** A window axis the services would read from each request's query: {@code ?toy=N}. */
    static final Axis<Integer> TOY = Axis.named("toy_size", Axis.Scope.WINDOW, Integer.class, Integer::valueOf)
            .flag("--toy-size", "N", "A toy's size, in toys.").fallback(1).quiet(1).query("toy")
            .accepts(Accepts.between(1, 9, "toy sizes from 1 to 9")).id("-toy", "", "\\d").build();

    @TempDir
    Path dir;

    @Test
    void aNewAxisReachesTheOptionsThePlanTheCsvAndTheReport() throws IOException {
        try (Axis.Registration toy = Axis.register(TOY)) {
            // the options: every command that takes the grid's axes has its flag, with its help
            for (String command : List.of("run", "map", "predict")) {
                assertThat(new CommandLine(new ExperimentCommand()).getSubcommands().get(command).getUsageMessage())
                        .as(command).contains("--toy-size", "A toy's size, in toys");
            }
            // the plan: a dimension of the grid, each value a window of the same warm JVM, asked in the request
            ExperimentPlan plan = run("--toy-size", "2,3", "--levels", "10", "--delay-ms", "10", "--variants",
                    "reactive", "--jvm-starts", "1", "--budget", "off", "--no-calibration", "--no-open-model",
                    "--no-jfr");
            assertThat(plan.grid().values(TOY)).containsExactly(2, 3);
            List<Window> windows = plan.schedule().steps().stream().filter(s -> s instanceof Step.Measure)
                    .map(s -> ((Step.Measure) s).window()).toList();
            assertThat(windows).extracting(Window::path).containsExactly("/api?toy=2", "/api?toy=3");
            assertThat(windows).extracting(w -> w.id().format()).containsExactly("reactive-10ms-toy2-closed-10-1",
                    "reactive-10ms-toy3-closed-10-1");
            // its values are checked by its declaration, with its own words
            assertThat(ExperimentCommand.execute("run", "--toy-size", "12", "--output", "target/never-toy"))
                    .isEqualTo(2);

            // results.csv: a column of its own; the report: the toy's words beside each cell
            List<WindowResult> rows = List.of(window(2, 4000), window(3, 3000));
            try (InputStream in = getClass().getResourceAsStream("/golden/run-4fa4b52-2x2/manifest.json")) {
                Files.copy(in, dir.resolve("manifest.json"));
            }
            ResultsWriter results = new ResultsWriter(dir);
            rows.forEach(results::add);
            List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
            int column = List.of(csv.getFirst().split(",")).indexOf("toy_size");
            assertThat(column).isPositive();
            assertThat(csv.subList(1, 3)).extracting(l -> l.split(",")[column]).containsExactly("2", "3");
            String report = Files.readString(Report.write(dir).markdown());
            assertThat(report).contains("toy size 2").contains("toy size 3");
        }
        // gone again once the test is done with it
        assertThat(Axis.named("toy_size")).isEmpty();
    }

    /** A variant of an existing module (say, the virtual-thread service with a setting of its own). */
    static final Variant TOY_VARIANT = new Variant("toy-variant", "virtual-thread-service", 8105,
            Variant.everyEndpoint(), Variant.Role.REFERENCE, Variant.Threads.VIRTUAL, Variant.Stack.QUARKUS_REST,
            "#17becf", false, "virtual threads with a toy setting", Map.of("lab.toy", "on"), List.of(), null);

    @Test
    void aNewVariantReachesTheOptionsThePlanTheCsvAndTheReport() throws IOException {
        try (Variant.Registration toy = Variant.register(TOY_VARIANT)) {
            ExperimentPlan plan = run("--variants", "reactive,toy-variant", "--levels", "10", "--delay-ms", "10",
                    "--jvm-starts", "1", "--budget", "off", "--no-calibration", "--no-open-model", "--no-jfr");
            assertThat(plan.variants()).containsExactly(Variant.REACTIVE, TOY_VARIANT);
            List<Window> windows = plan.schedule().steps().stream().filter(s -> s instanceof Step.Measure)
                    .map(s -> ((Step.Measure) s).window()).toList();
            assertThat(windows).extracting(w -> w.id().format()).containsExactly("reactive-10ms-closed-10-1",
                    "toy-variant-10ms-closed-10-1");
            assertThat(plan.jvms()).extracting(j -> j.port()).contains(8105);

            try (InputStream in = getClass().getResourceAsStream("/golden/run-4fa4b52-2x2/manifest.json")) {
                Files.copy(in, dir.resolve("manifest.json"));
            }
            ResultsWriter results = new ResultsWriter(dir);
            results.add(Windows.closed("reactive", 100, 4000).build());
            results.add(Windows.closed("toy-variant", 100, 3000).build());
            assertThat(Files.readAllLines(dir.resolve("results.csv"))).anyMatch(l -> l.contains(",toy-variant,"));
            assertThat(Files.readString(Report.write(dir).markdown())).contains("toy-variant");
        }
        assertThat(Variant.find("toy-variant")).isEmpty();
    }

    private static WindowResult window(int size, double rps) {
        return Windows.closed("reactive", 100, rps).at(Point.of(TOY, size)).build();
    }
}
