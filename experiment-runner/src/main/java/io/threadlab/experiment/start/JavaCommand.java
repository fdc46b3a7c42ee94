package io.threadlab.experiment.start;

import io.threadlab.experiment.plan.Database;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Knobs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every java command line of a run, built in one place: the flags every service gets (fixed heap, explicit GC), and
 * for a variant its knobs, its own settings, its port and the compiler recording its warm-up follows live (written to
 * a repository of its own, outside the results).
 */
public final class JavaCommand {

    public static final String COMPILER_RECORDING = "compiler";
    public static final int DELAY_PORT = 8090;

    private final Path javaHome;
    private final Path labHome;
    private final ServiceJars jars;

    public JavaCommand(Path javaHome, Path labHome) {
        this.javaHome = javaHome;
        this.labHome = labHome;
        this.jars = new ServiceJars(labHome);
    }

    public static String delayUrl() {
        return "http://127.0.0.1:" + DELAY_PORT;
    }

    /** The delay service, waiting {@code delayMs} for requests that give none until the runner says otherwise. */
    public List<String> delayService(Knobs knobs, int delayMs) {
        List<String> command = java(knobs);
        command.add("-Dlab.delay.default-ms=" + delayMs);
        command.addAll(List.of("-jar", jars.jar("delay-service").toString()));
        return command;
    }

    /**
     * The lab's PostgreSQL: {@code lab-database serve} with the run's database settings, which unpacks, starts and
     * loads it, writes {@code ready} once it is, and on SIGTERM stops it and removes all it made, keeping the server's
     * log at {@code serverLog}. Its JVM only loads the data and waits: a small fixed heap of its own.
     */
    public List<String> database(Database database, int port, Path ready, Path serverLog) {
        List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString(), "-Xms128m",
                "-Xmx128m", "-XX:+UseSerialGC", "-jar", jars.jar(LabDatabase.MODULE).toString(), "serve",
                "--port=" + port, "--max-connections=" + database.maxConnections(),
                "--shared-buffers=" + database.sharedBuffers(), "--fsync=" + (database.fsync() ? "on" : "off"),
                "--ready-file=" + ready, "--keep-log=" + serverLog));
        return command;
    }

    /** One variant's JVM, with the knobs of its setup. */
    public List<String> variant(Jvm jvm, Knobs knobs, Path compilerRepository) {
        List<String> command = java(knobs);
        command.addAll(jvm.variant().jvmOptions());
        command.add("-XX:StartFlightRecording=name=" + COMPILER_RECORDING + ",settings="
                + labHome.resolve("jfr/compiler.jfc"));
        command.add("-XX:FlightRecorderOptions=repository=" + compilerRepository);
        command.addAll(knobs.variantProperties(delayUrl(), LabDatabase.url()));
        jvm.variant().properties().forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-Dquarkus.http.port=" + jvm.port());
        command.addAll(List.of("-jar", jars.jar(jvm.variant().module()).toString()));
        return command;
    }

    private List<String> java(Knobs knobs) {
        List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString()));
        command.addAll(knobs.jvmFlags());
        return command;
    }
}
