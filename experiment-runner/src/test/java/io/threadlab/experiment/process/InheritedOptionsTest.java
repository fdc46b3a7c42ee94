package io.threadlab.experiment.process;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A runtime option set in the runner's shell reaches no process the runner starts, and the run says it was there. */
class InheritedOptionsTest {

    private static Map<String, String> shell() {
        return new HashMap<>(Map.of("PATH", "/usr/bin", "HOME", "/root", "JAVA_TOOL_OPTIONS", "-Xmx64m",
                "_JAVA_OPTIONS", "-XX:+UseParallelGC", "GOGC", "400", "GOMEMLIMIT", "1GiB", "K6_VUS", "10",
                "K6_NO_USAGE_REPORT", "false", "GOPATH", "/root/go", "JAVA_HOME", "/usr/lib/jvm/x"));
    }

    @Test
    void theRuntimesOptionsAreTakenOutAndNothingElse() {
        Map<String, String> env = shell();
        InheritedOptions.remove(env);
        assertThat(env).containsOnlyKeys("PATH", "HOME", "GOPATH", "JAVA_HOME");
    }

    @Test
    void theRunNamesWhatItsShellSet() {
        List<String> found = InheritedOptions.found(shell());
        assertThat(found).containsExactly("GOGC", "GOMEMLIMIT", "JAVA_TOOL_OPTIONS", "K6_NO_USAGE_REPORT", "K6_VUS",
                "_JAVA_OPTIONS");
        assertThat(InheritedOptions.warning(found)).startsWith("the shell sets GOGC, GOMEMLIMIT,")
                .contains("does not pass to the JVMs or k6");
        assertThat(InheritedOptions.found(Map.of("PATH", "/usr/bin"))).isEmpty();
    }

    /** A real process started as the runner starts a service sees none of them. */
    @Test
    void aStartedProcessDoesNotSeeThem(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException,
            InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", "env").redirectErrorStream(true)
                .redirectOutput(dir.resolve("env.txt").toFile());
        builder.environment().putAll(Map.of("JAVA_TOOL_OPTIONS", "-Xmx64m", "GOGC", "400", "LAB_MARK", "seen"));
        InheritedOptions.remove(builder.environment());
        assertThat(builder.start().waitFor()).isZero();
        assertThat(Files.readString(dir.resolve("env.txt"))).contains("LAB_MARK=seen")
                .doesNotContain("JAVA_TOOL_OPTIONS").doesNotContain("GOGC=");
    }
}
