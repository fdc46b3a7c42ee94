package io.threadlab.experiment;

import io.threadlab.experiment.collect.RunManifest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Versions and machine facts for the manifest: what a reader needs to judge or repeat a run. */
final class MachineFacts {

    private MachineFacts() {
    }

    static RunManifest.Lab collect(Path labHome, Path javaHome, String k6Version, String anyServiceModule) {
        return new RunManifest.Lab(gitSha(labHome),
                !run(labHome, "git", "status", "--porcelain").isEmpty(),
                quarkusVersion(labHome.resolve(anyServiceModule)), javaHome.toString(),
                System.getProperty("java.version"), k6Version,
                System.getProperty("os.name") + " " + System.getProperty("os.version"), cpuModel(),
                Runtime.getRuntime().availableProcessors(), memoryMb());
    }

    private static String quarkusVersion(Path module) {
        try {
            return Files.readAllLines(module.resolve("target/quarkus-app/quarkus-app-dependencies.txt")).stream()
                    .filter(l -> l.startsWith("io.quarkus:quarkus-core::jar:")).findFirst()
                    .map(l -> l.substring("io.quarkus:quarkus-core::jar:".length())).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String cpuModel() {
        return lineValue(Path.of("/proc/cpuinfo"), "model name");
    }

    private static long memoryMb() {
        String kb = lineValue(Path.of("/proc/meminfo"), "MemTotal").replace("kB", "").trim();
        return kb.isEmpty() ? -1 : Long.parseLong(kb) / 1024;
    }

    private static String lineValue(Path file, String key) {
        try {
            return Files.readAllLines(file).stream().filter(l -> l.startsWith(key)).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("");
        } catch (IOException e) {
            return "";
        }
    }

    static String gitSha(Path labHome) {
        return run(labHome, "git", "rev-parse", "HEAD");
    }

    private static String run(Path dir, String... command) {
        try {
            Process p = new ProcessBuilder(List.of(command)).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
