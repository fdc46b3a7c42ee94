package io.threadlab.experiment;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A run's services are built on one Quarkus version, the one its manifest records; two versions are refused. */
class OnePlatformTest {

    @TempDir
    Path lab;

    private void built(String module, String version) throws IOException {
        Path app = Files.createDirectories(lab.resolve(module).resolve("target/quarkus-app"));
        Files.writeString(app.resolve("quarkus-app-dependencies.txt"),
                "io.quarkus:quarkus-arc::jar:" + version + "\nio.quarkus:quarkus-core::jar:" + version + "\n");
    }

    @Test
    void servicesOnOneVersionPass() throws IOException {
        built("delay-service", "3.33.2");
        built("reactive-service", "3.33.2");
        Files.createDirectories(lab.resolve("lab-database/target")); // no Quarkus: not asked
        assertThatCode(() -> MachineFacts.requireOnePlatform(lab, List.of("delay-service", "reactive-service",
                "lab-database"))).doesNotThrowAnyException();
    }

    @Test
    void servicesOnTwoVersionsAreRefusedNamingEach() throws IOException {
        built("delay-service", "3.33.2");
        built("reactive-service", "3.27.2");
        assertThatThrownBy(() -> MachineFacts.requireOnePlatform(lab, List.of("delay-service", "reactive-service")))
                .hasMessageContaining("{delay-service=3.33.2, reactive-service=3.27.2}")
                .hasMessageContaining("./mvnw clean package -DskipTests");
    }
}
