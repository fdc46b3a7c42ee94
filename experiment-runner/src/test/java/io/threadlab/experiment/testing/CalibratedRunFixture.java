package io.threadlab.experiment.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.collect.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A real run with calibration windows, for {@code ./experiment predict}: the default {@code ./experiment run} of
 * 2026-11-24T23-35-56Z on the lab's 2-core machine, made by the runner at 7be1ba9 (whose capacity model is today's),
 * its manifest.json and results.json unchanged. Its first JVM start of each variant was calibrated at 700, 300, 150
 * and 10 users at 10 ms and 0.5 CPU; every later window carries the prediction the runner made before measuring it.
 * Also the format-1 run of the golden report, which has no calibration.
 */
public final class CalibratedRunFixture {

    private static final String CALIBRATED = "/predict/run-7be1ba9/";
    private static final String BEFORE_CALIBRATION = "/golden/run-d6f4758/";

    private CalibratedRunFixture() {
    }

    /** The calibrated run, copied into {@code dir}. */
    public static Path calibrated(Path dir) {
        return copy(CALIBRATED, dir);
    }

    /** A run of an earlier runner (results format 1), which calibrated nothing, copied into {@code dir}. */
    public static Path beforeCalibration(Path dir) {
        return copy(BEFORE_CALIBRATION, dir);
    }

    /** The calibrated run with its results.json edited, copied into {@code dir}. */
    public static Path calibrated(Path dir, Consumer<ObjectNode> editResults) {
        calibrated(dir);
        try {
            ObjectMapper mapper = Json.MAPPER;
            ObjectNode results = (ObjectNode) mapper.readTree(dir.resolve("results.json").toFile());
            editResults.accept(results);
            Json.write(dir.resolve("results.json"), results);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path copy(String resource, Path dir) {
        for (String file : new String[] {"manifest.json", "results.json"}) {
            try (InputStream in = CalibratedRunFixture.class.getResourceAsStream(resource + file)) {
                if (in == null) {
                    throw new IllegalStateException("test resource " + resource + file + " is missing");
                }
                Files.copy(in, dir.resolve(file));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }
}
