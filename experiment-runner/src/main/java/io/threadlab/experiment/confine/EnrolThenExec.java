package io.threadlab.experiment.confine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The wrapper that makes confinement visible to the JVM: a shell writes its own PID into each group's
 * {@code cgroup.procs}, then {@code exec}s the command, which so starts inside the group with the same PID. Moving a
 * JVM in after start leaves {@code availableProcessors()} at the machine's count (measured).
 */
final class EnrolThenExec {

    private EnrolThenExec() {
    }

    static List<String> command(List<Path> procsFiles, List<String> command) {
        String enrol = procsFiles.stream().map(p -> "echo $$ > '" + p.toString().replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" && "));
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", enrol + " && exec \"$0\" \"$@\""));
        wrapped.addAll(command);
        return wrapped;
    }
}
