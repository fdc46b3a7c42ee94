package io.threadlab.experiment;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** The quotas the manifest's confinement lists: every one a JVM of the plan runs at, the run's own first. */
class RigQuotasTest {

    @Test
    void aMapOfSeveralQuotasListsEachAndARunItsOne() {
        MapCommand map = new MapCommand();
        new CommandLine(map).parseArgs("--variants", "reactive", "--cpus", "0.25,0.5", "--levels", "1000",
                "--delay-ms", "50");
        assertThat(Rig.quotas(map.plan())).containsExactly(0.25, 0.5);
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--cpus", "0.35");
        assertThat(Rig.quotas(run.plan())).containsExactly(0.35);
    }
}
