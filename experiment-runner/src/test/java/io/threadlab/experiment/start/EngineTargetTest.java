package io.threadlab.experiment.start;

import io.threadlab.experiment.process.ComposeCli.DockerFailed;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The engine's name resolved and checked with a stand-in for the docker CLI: what each answer makes of the run. */
class EngineTargetTest {

    private static final String INFO = """
            {"Name":"box","ServerVersion":"28.2.2","OperatingSystem":"Debian","KernelVersion":"6.1","NCPU":8,
             "MemTotal":17179869184,"CgroupVersion":"2","CgroupDriver":"systemd","CpuCfsQuota":true}""";

    private final List<String> asked = new ArrayList<>();
    private final List<Map<String, String>> envs = new ArrayList<>();

    private EngineTarget.Docker answering(Map<String, String> answers) {
        return (env, args) -> {
            asked.add(String.join(" ", args));
            envs.add(env);
            return answers.entrySet().stream().filter(a -> String.join(" ", args).startsWith(a.getKey()))
                    .map(Map.Entry::getValue).findFirst().orElseThrow(() -> new DockerFailed(
                            "Cannot connect to the Docker daemon at tcp://10.0.0.9:2375. Is the daemon running?"));
        };
    }

    @Test
    void aHostIsTheEngineItsAddressAndItsInfo() {
        EngineTarget target = EngineTarget.resolve("tcp://10.0.0.9:2375", null, answering(Map.of("info", INFO)));
        assertThat(target.remote()).isTrue();
        assertThat(target.sameMachine()).isFalse();
        assertThat(target.address()).isEqualTo("10.0.0.9");
        assertThat(target.env()).containsEntry("DOCKER_HOST", "tcp://10.0.0.9:2375")
                .containsEntry("DOCKER_CONTEXT", "");
        assertThat(envs.getFirst()).isEqualTo(target.env()); // docker info asked that engine, not this machine's
        assertThat(target.info()).containsEntry("name", "box").containsEntry("cores", 8)
                .containsEntry("memory_mb", 16384L).containsEntry("cgroup_version", "2");
        assertThat(target.describe()).isEqualTo("the Docker engine at tcp://10.0.0.9:2375 (box, 8 cores)");
    }

    @Test
    void theLoadsEngineNeedNotHoldAQuotaForK6RunsUnlimited() {
        EngineTarget load = EngineTarget.forLoad("tcp://10.0.0.7:2375", answering(Map.of("info",
                INFO.replace("\"CpuCfsQuota\":true", "\"CpuCfsQuota\":false"))));
        assertThat(load.sameMachine()).isFalse();
        assertThat(load.address()).isEqualTo("10.0.0.7");
        assertThat(load.info()).containsEntry("cores", 8);
        assertThat(envs.getFirst()).containsEntry("DOCKER_HOST", "tcp://10.0.0.7:2375");
        assertThatThrownBy(() -> EngineTarget.forLoad("tcp://127.0.0.1:1", answering(Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not answer");
        assertThat(EngineTarget.onThisMachine("unix:///var/run/docker.sock")).isTrue();
        assertThat(EngineTarget.onThisMachine("tcp://127.0.0.1:2375")).isTrue();
        assertThat(EngineTarget.onThisMachine("tcp://10.0.0.7:2375")).isFalse();
    }

    @Test
    void anEngineOnLoopbackIsOnThisMachineButStillAnotherEngine() {
        EngineTarget target = EngineTarget.resolve("tcp://127.0.0.1:23750", null, answering(Map.of("info", INFO)));
        assertThat(target.remote()).isTrue();
        assertThat(target.sameMachine()).isTrue();
        assertThat(target.address()).isEqualTo("127.0.0.1");
    }

    @Test
    void aContextIsLookedUpAndPassedOnAsTheContext() {
        EngineTarget target = EngineTarget.resolve(null, "lab-box", answering(Map.of(
                "context inspect", "ssh://lab@10.0.0.7\n", "info", INFO)));
        assertThat(asked.getFirst()).isEqualTo("context inspect --format {{.Endpoints.docker.Host}} lab-box");
        assertThat(target.endpoint()).isEqualTo("ssh://lab@10.0.0.7");
        assertThat(target.address()).isEqualTo("10.0.0.7");
        assertThat(target.env()).containsEntry("DOCKER_CONTEXT", "lab-box").containsEntry("DOCKER_HOST", "");
    }

    @Test
    void noNameIsThisMachinesEngine() {
        EngineTarget target = EngineTarget.resolve(null, "default", answering(Map.of("info", INFO)));
        assertThat(target.remote()).isFalse();
        assertThat(target.sameMachine()).isTrue();
        assertThat(target.env()).isEmpty();
    }

    @Test
    void badNamesAndUnfitEnginesAreUsageErrorsThatSayWhy() {
        assertThatThrownBy(() -> EngineTarget.resolve(null, "nope", answering(Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("there is no Docker context 'nope'")
                .hasMessageContaining("docker context ls");
        assertThatThrownBy(() -> EngineTarget.resolve("tcp://10.0.0.9:2375", null, answering(Map.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the Docker engine at tcp://10.0.0.9:2375 does not answer")
                .hasMessageContaining("Cannot connect to the Docker daemon");
        assertThatThrownBy(() -> EngineTarget.resolve("tcp://10.0.0.9:2375", null, answering(Map.of("info",
                INFO.replace("\"CpuCfsQuota\":true", "\"CpuCfsQuota\":false")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot hold a container to a CPU"
                        + " quota").hasMessageContaining("cgroup 2 with driver systemd");
        assertThatThrownBy(() -> EngineTarget.resolve("tcp://10.0.0.9:2375", null, answering(Map.of("info",
                "{\"ServerErrors\":[\"Cannot connect to the Docker daemon\"]}"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not answer");
        assertThatThrownBy(() -> EngineTarget.resolve("10.0.0.9:2375", null, answering(Map.of("info", INFO))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a Docker engine's URL");
        assertThatThrownBy(() -> EngineTarget.resolve("tcp://10.0.0.9:2375", "lab-box", answering(Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("give one");
        assertThat(asked).as("no docker command for a malformed or doubly named engine").hasSize(4);
    }
}
