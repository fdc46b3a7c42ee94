package io.threadlab.experiment;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.WorkKind;
import io.threadlab.experiment.plan.DbAccess;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.plan.WindowId;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.threadlab.experiment.PlannedRun.run;
import static io.threadlab.experiment.PlannedRun.windows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --db-access}: the first axis added as a declaration (plan/Axis) and its effect in the services (a query
 * parameter of the page's request): its windows' requests and names, its calibration apart, and what it refuses.
 */
class DbAccessPlanTest {

    @Test
    void withoutItTheDatabasesWindowsAreTodays() {
        ExperimentPlan plan = run("--downstream", "db", "--delay-ms", "0", "--levels", "500", "--no-calibration");
        assertThat(plan.grid().axes()).doesNotContain(Axis.DB_ACCESS);
        assertThat(windows(plan)).extracting(Window::path).containsOnly("/api/articles");
        assertThat(windows(plan).getFirst().id().format()).isEqualTo("imperative-db-0ms-closed-500-1");
    }

    @Test
    void hibernateIsAQueryOfThePageNamedOrmAndCalibratedApart() {
        ExperimentPlan plan = run("--downstream", "db", "--db-access", "jdbc,orm", "--delay-ms", "0", "--levels",
                "500", "--variants", "reactive", "--jvm-starts", "1", "--budget", "off", "--no-open-model",
                "--no-jfr", "--calibration-levels", "300,10", "--calibration-delay-ms", "0");
        List<Window> measured = windows(plan).stream().filter(w -> w.id().role() == WindowId.Role.MEASURED)
                .toList();
        assertThat(measured).extracting(Window::path).containsExactly("/api/articles", "/api/articles?access=orm");
        assertThat(measured).extracting(w -> w.id().format()).containsExactly("reactive-db-0ms-closed-500-1",
                "reactive-db-0ms-orm-closed-500-1");
        for (Window w : measured) { // the name reads back as the point, its quiet value aside
            assertThat(WindowId.parse(w.id().format()).orElseThrow().at().get(Axis.DB_ACCESS))
                    .isEqualTo(w.at().get(Axis.DB_ACCESS) == DbAccess.ORM ? DbAccess.ORM : null);
        }
        // each kind of work its own calibration: the plain client's, and Hibernate's
        List<Window> calibration = windows(plan).stream().filter(w -> w.id().role() == WindowId.Role.CALIBRATION)
                .toList();
        assertThat(calibration).extracting(w -> WorkKind.label(WorkKind.of(w.at()))).containsExactly("db", "db",
                "db-orm", "db-orm");
        assertThat(calibration).extracting(Window::path).containsExactly("/api/articles", "/api/articles",
                "/api/articles?access=orm", "/api/articles?access=orm");
        // the event loop's own names for the same two kinds are the same kinds
        assertThat(run("--downstream", "db", "--db-access", "reactive-client,hibernate-reactive", "--no-calibration")
                .grid().values(Axis.DB_ACCESS)).containsExactly(DbAccess.JDBC, DbAccess.ORM);
    }

    @Test
    void eachJvmIsWarmedUpOnEveryKindOfWorkItMeasuresBeforeAnyIsMeasured() {
        ExperimentPlan plan = run("--downstream", "db", "--db-access", "jdbc,orm", "--delay-ms", "0", "--levels",
                "500", "--variants", "reactive", "--jvm-starts", "2", "--budget", "off", "--no-open-model",
                "--no-jfr", "--no-calibration");
        List<Step> steps = plan.schedule().steps();
        for (int start = 1; start <= 2; start++) {
            int jvm = start;
            List<Step.WarmUp> warmUps = steps.stream().filter(s -> s instanceof Step.WarmUp w && w.jvm().start() == jvm)
                    .map(s -> (Step.WarmUp) s).toList();
            assertThat(warmUps).extracting(Step.WarmUp::path).containsExactly("/api/articles",
                    "/api/articles?access=orm");
            int lastWarmUp = steps.indexOf(warmUps.getLast());
            assertThat(steps.subList(0, lastWarmUp)).as("nothing of JVM start " + jvm + " measured before both")
                    .noneMatch(s -> s instanceof Step.Measure m && m.window().jvm().start() == jvm);
        }
    }

    @Test
    void aVariantWithoutHibernateIsLeftOutOfItsPoints() {
        Variant smallPool = Variant.fromLabel("small-pool-virtual-threads");
        assertThat(smallPool.path(Point.of(Axis.DOWNSTREAM, io.threadlab.experiment.plan.Downstream.DB)
                .with(Axis.DB_ACCESS, DbAccess.ORM))).isNull();
        assertThat(Variant.REACTIVE.path(Point.of(Axis.DB_ACCESS, DbAccess.ORM))).as("Hibernate on the delay service")
                .isNull();
    }

    @Test
    void theGallerysHibernateMistakesAreMeasuredAgainstThePageThroughHibernate() {
        ExperimentPlan plan = run("--mistakes", "--downstream", "db", "--db-access", "jdbc,orm", "--delay-ms", "0",
                "--levels", "100", "--no-open-model", "--no-jfr", "--budget", "off");
        assertThat(plan.variants()).extracting(Variant::label).contains("orm-n-plus-one", "orm-on-event-loop",
                "imperative-rest", "reactive");
        List<Window> measured = windows(plan).stream().filter(w -> w.id().role() == WindowId.Role.MEASURED
                && !w.recorded()).toList();
        assertThat(measured).filteredOn(w -> w.variant().label().equals("orm-n-plus-one")).extracting(Window::path)
                .containsOnly("/mistakes/orm/n-plus-one?access=orm"); // at Hibernate's points only
        assertThat(measured).filteredOn(w -> w.variant().label().equals("imperative-rest"))
                .extracting(Window::path).contains("/api/articles?access=orm");
        assertThat(measured).filteredOn(w -> w.variant().label().equals("jdbc-on-event-loop"))
                .extracting(Window::path).containsOnly("/mistakes/jdbc-on-event-loop");
    }

    private record Outcome(int exit, String err) {
    }

    private static Outcome execute(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream was = System.err;
        int exit;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = ExperimentCommand.execute(args);
        } finally {
            System.setErr(was);
        }
        return new Outcome(exit, err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badInputIsAUsageErrorThatSaysWhyAndStartsNothing() {
        assertThat(execute("run", "--db-access", "orm", "--output", "target/never-db-access")).satisfies(o -> {
            assertThat(o.exit()).isEqualTo(2);
            assertThat(o.err()).contains("--db-access orm reads the database's page: it needs --downstream db");
        });
        assertThat(execute("run", "--downstream", "db", "--db-access", "jpa", "--output",
                "target/never-db-access")).satisfies(o -> {
            assertThat(o.exit()).isEqualTo(2);
            assertThat(o.err()).contains("--db-access takes jdbc or orm (on the event loop also called"
                    + " reactive-client and hibernate-reactive), was 'jpa'");
        });
        assertThat(execute("predict", "--from", "target/never-db-access", "--db-access", "orm")).satisfies(o -> {
            assertThat(o.exit()).isEqualTo(2);
            assertThat(o.err()).contains("--db-access orm reads the database's page: add --downstream db");
        });
        assertThat(java.nio.file.Files.exists(java.nio.file.Path.of("target/never-db-access"))).isFalse();
    }
}
