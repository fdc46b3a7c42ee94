package io.threadlab.experiment.start;

import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.record.FlightRecorder;
import io.threadlab.experiment.record.Recorder;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

/** Local JVMs, each started inside its CPU group by the enrol-then-exec wrapper; JFR through this JDK's jcmd. */
public final class LocalEngine implements Engine {

    private final Confinement confinement;
    private final Recorder recorder;

    public LocalEngine(Confinement confinement, Path javaHome, Path jfc) {
        this.confinement = confinement;
        this.recorder = new FlightRecorder(javaHome, jfc);
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public Confinement confinement() {
        return confinement;
    }

    @Override
    public Recorder recorder() {
        return recorder;
    }

    @Override
    public ServiceProcess start(String module, int port, String group, OptionalDouble cpus, List<String> javaCommand,
                                Path log) {
        return LocalProcess.start(module, port, confinement.wrap(group, cpus, javaCommand), log);
    }

    @Override
    public void cleanUp() {
        Processes.stopAll();
        confinement.removeAll();
    }
}
