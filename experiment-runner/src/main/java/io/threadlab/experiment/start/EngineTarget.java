package io.threadlab.experiment.start;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.process.ComposeCli.DockerFailed;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Docker engine the compose engine runs the services on: this machine's own (the docker CLI's default), or another
 * one named by {@code --docker-host} / {@code DOCKER_HOST} (an engine's URL) or {@code --docker-context} /
 * {@code DOCKER_CONTEXT} (a docker context). Resolved and checked before anything starts: the context exists, the
 * engine answers, and it can hold a container to a CPU quota. Each failure is the user's to fix, so it is a usage
 * error.
 *
 * @param endpoint  the engine's URL ({@code unix:///var/run/docker.sock}, {@code tcp://host:2375}, {@code ssh://...})
 * @param env       what every docker command of the run gets, so that all of them reach this engine
 * @param address   where its published ports are reached from this machine
 * @param remote    whether the engine is not the docker CLI's default one: its containers' processes, cgroups and
 *                  bind mounts are not this machine's, so they are read and copied through the engine
 * @param sameMachine whether the engine runs on this machine all the same (a loopback address or a local socket):
 *                  k6 then shares this machine's CPUs with the services
 * @param info      the engine's {@code docker info}, as the manifest records it
 */
public record EngineTarget(String endpoint, Map<String, String> env, String address, boolean remote,
                           boolean sameMachine, Map<String, Object> info) {

    /** Runs a docker command with extra environment; returns its output or throws {@link DockerFailed}. */
    @FunctionalInterface
    public interface Docker {
        String run(Map<String, String> env, List<String> args);
    }

    /** The default engine's, for a run without --engine compose (no docker command is run). */
    public static EngineTarget thisMachine() {
        return new EngineTarget("this machine", Map.of(), "127.0.0.1", false, true, Map.of());
    }

    /**
     * @param host    {@code --docker-host}, else {@code DOCKER_HOST}; null or blank: none
     * @param context {@code --docker-context}, else {@code DOCKER_CONTEXT}; null, blank or "default": none
     */
    public static EngineTarget resolve(String host, String context, Docker docker) {
        boolean hasHost = host != null && !host.isBlank();
        boolean hasContext = context != null && !context.isBlank() && !context.equals("default");
        if (hasHost && hasContext) {
            throw new IllegalArgumentException("both a Docker host (" + host + ") and a Docker context (" + context
                    + ") name the engine; give one (--docker-host or --docker-context, or unset DOCKER_HOST or"
                    + " DOCKER_CONTEXT)");
        }
        Map<String, String> env = new LinkedHashMap<>();
        String endpoint;
        if (hasContext) {
            try {
                endpoint = docker.run(Map.of(), List.of("context", "inspect", "--format",
                        "{{.Endpoints.docker.Host}}", context)).strip();
            } catch (DockerFailed e) {
                throw new IllegalArgumentException("there is no Docker context '" + context + "' (`docker context"
                        + " inspect` said: " + e.getMessage() + "). `docker context ls` lists the contexts there are.");
            }
            env.put("DOCKER_CONTEXT", context);
            env.put("DOCKER_HOST", ""); // a DOCKER_HOST would win over the context
        } else if (hasHost) {
            endpoint = host.strip();
            env.put("DOCKER_HOST", endpoint);
            env.put("DOCKER_CONTEXT", "");
        } else {
            endpoint = "unix:///var/run/docker.sock";
        }
        String address = address(endpoint);
        boolean remote = hasHost || hasContext;
        Map<String, Object> info = info(docker, env, hasHost || hasContext ? endpoint : "this machine's", true);
        return new EngineTarget(endpoint, Map.copyOf(env), address, remote, isLoopback(address), info);
    }

    /**
     * The engine {@code --load-host} names for k6's container: it must answer; it need not hold containers to a
     * quota, for k6 runs unlimited.
     */
    public static EngineTarget forLoad(String host, Docker docker) {
        String endpoint = host.strip();
        Map<String, String> env = Map.of("DOCKER_HOST", endpoint, "DOCKER_CONTEXT", "");
        String address = address(endpoint);
        Map<String, Object> info = info(docker, env, endpoint, false);
        return new EngineTarget(endpoint, env, address, true, isLoopback(address), info);
    }

    /** Whether the engine at {@code endpoint} runs on this machine (a loopback address or a local socket). */
    public static boolean onThisMachine(String endpoint) {
        return isLoopback(address(endpoint.strip()));
    }

    /** Where the engine's published ports are: the host of a tcp:// or ssh:// URL; this machine for a socket. */
    static String address(String endpoint) {
        URI uri;
        try {
            uri = URI.create(endpoint);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + endpoint + "' is not a Docker engine's URL (tcp://HOST:PORT,"
                    + " ssh://USER@HOST or unix:///PATH)");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme();
        return switch (scheme) {
            case "unix", "npipe" -> "127.0.0.1";
            case "tcp", "ssh", "http", "https" -> {
                if (uri.getHost() == null) {
                    throw new IllegalArgumentException("'" + endpoint + "' names no host");
                }
                yield uri.getHost();
            }
            default -> throw new IllegalArgumentException("'" + endpoint + "' is not a Docker engine's URL"
                    + " (tcp://HOST:PORT, ssh://USER@HOST or unix:///PATH)");
        };
    }

    private static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("the Docker engine's host '" + address + "' is not known here: " + e
                    .getMessage());
        }
    }

    /**
     * The engine's {@code docker info}: it must answer, and, where {@code quota}, enforce CPU quotas (the CFS quota of
     * the cpu controller), or the variants would not be held to theirs.
     */
    static Map<String, Object> info(Docker docker, Map<String, String> env, String which, boolean quota) {
        String out;
        try {
            out = docker.run(env, List.of("info", "--format", "{{json .}}"));
        } catch (DockerFailed e) {
            throw new IllegalArgumentException("the Docker engine at " + which + " does not answer (`docker info`"
                    + " said: " + e.getMessage() + "). Is it running, and reachable from here?");
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(out.strip());
        } catch (IOException e) {
            throw new IllegalArgumentException("the Docker engine at " + which + " answered `docker info` with no"
                    + " JSON: " + out.lines().findFirst().orElse(""));
        }
        if (node.hasNonNull("ServerErrors") && !node.path("ServerErrors").isEmpty()) {
            throw new IllegalArgumentException("the Docker engine at " + which + " does not answer (`docker info`"
                    + " said: " + node.path("ServerErrors").get(0).asText() + "). Is it running, and reachable from"
                    + " here?");
        }
        if (quota && !node.path("CpuCfsQuota").asBoolean(false)) { // docker info's JSON name (its template's is CPUCfsQuota)
            throw new IllegalArgumentException("the Docker engine at " + which + " cannot hold a container to a CPU"
                    + " quota (`docker info`: no CPU CFS quota, cgroup " + node.path("CgroupVersion").asText("?")
                    + " with driver " + node.path("CgroupDriver").asText("?") + "): the variants would not run at"
                    + " their quota there. Use an engine on a Linux host with the cgroup cpu controller.");
        }
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", node.path("Name").asText());
        info.put("server_version", node.path("ServerVersion").asText());
        info.put("operating_system", node.path("OperatingSystem").asText());
        info.put("kernel", node.path("KernelVersion").asText());
        info.put("cores", node.path("NCPU").asInt());
        info.put("memory_mb", node.path("MemTotal").asLong() / (1024 * 1024));
        info.put("cgroup_version", node.path("CgroupVersion").asText());
        info.put("cgroup_driver", node.path("CgroupDriver").asText());
        return info;
    }

    /** For messages and the report: "the Docker engine at tcp://10.0.0.5:2375 (box, 8 cores)". */
    public String describe() {
        if (!remote) {
            return "this machine's Docker engine";
        }
        return "the Docker engine at " + endpoint + (info.isEmpty() ? "" : " (" + info.get("name") + ", "
                + info.get("cores") + " cores)");
    }
}
