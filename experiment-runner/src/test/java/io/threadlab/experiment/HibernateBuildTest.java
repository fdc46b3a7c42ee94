package io.threadlab.experiment;

import io.threadlab.experiment.plan.ExperimentPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.threadlab.experiment.PlannedRun.run;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code --db-access orm} needs each variant's Hibernate in its build: the reactive service's Hibernate Reactive (a
 * build on Quarkus 3.27.2 has none), and Hibernate ORM wherever the variant reads through it, the gallery's
 * Hibernate ORM on the event loop included.
 */
class HibernateBuildTest {

    private static void built(Path lab, String module, String... artifacts) throws IOException {
        Path list = Files.createDirectories(lab.resolve(module).resolve("target/quarkus-app"))
                .resolve("quarkus-app-dependencies.txt");
        StringBuilder lines = new StringBuilder("io.quarkus:quarkus-core::jar:3.33.2\n");
        for (String artifact : artifacts) {
            lines.append("io.quarkus:").append(artifact).append("::jar:3.33.2\n");
        }
        Files.writeString(list, lines);
    }

    @Test
    void theGallerysOrmOnTheEventLoopNeedsHibernateOrmNotHibernateReactive(@TempDir Path lab) throws IOException {
        ExperimentPlan plan = run("--mistakes", "--downstream", "db", "--db-access", "jdbc,orm", "--delay-ms", "0",
                "--levels", "100", "--no-open-model", "--no-jfr");
        built(lab, "mistakes-service", "quarkus-hibernate-orm");
        built(lab, "reactive-service", "quarkus-hibernate-orm", "quarkus-hibernate-reactive");
        built(lab, "imperative-rest-service", "quarkus-hibernate-orm");
        assertThatCode(() -> MachineFacts.requireHibernate(lab, plan)).doesNotThrowAnyException();
        built(lab, "reactive-service", "quarkus-hibernate-orm");
        assertThatThrownBy(() -> MachineFacts.requireHibernate(lab, plan))
                .hasMessageContaining("reactive-service was built without quarkus-hibernate-reactive");
        built(lab, "reactive-service", "quarkus-hibernate-orm", "quarkus-hibernate-reactive");
        built(lab, "mistakes-service");
        assertThatThrownBy(() -> MachineFacts.requireHibernate(lab, plan))
                .hasMessageContaining("mistakes-service was built without quarkus-hibernate-orm");
    }
}
