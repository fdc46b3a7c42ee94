package io.threadlab.experiment;

import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.DbAccess;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Variant;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Versions and machine facts for the manifest: what a reader needs to judge or repeat a run. */
final class MachineFacts {

    /** What a Quarkus build lists of its dependencies, one {@code group:artifact::jar:version} a line. */
    private static final String DEPENDENCIES = "target/quarkus-app/quarkus-app-dependencies.txt";

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

    /**
     * Refuses services built on different Quarkus versions: a run compares threading models, not releases, and the
     * manifest records one version. A build on the other platform ({@code -Dquarkus.platform.version=...}) without
     * {@code clean} can leave it so.
     */
    static void requireOnePlatform(Path labHome, java.util.Collection<String> modules) {
        java.util.Map<String, String> versions = new java.util.TreeMap<>();
        modules.stream().filter(m -> Files.isDirectory(labHome.resolve(m).resolve("target/quarkus-app")))
                .forEach(m -> versions.put(m, quarkusVersion(labHome.resolve(m))));
        if (versions.values().stream().distinct().count() > 1) {
            throw new IllegalStateException("the services were built on different Quarkus versions " + versions
                    + ": build them on one, e.g. ./mvnw clean package -DskipTests (or with"
                    + " -Dquarkus.platform.version=3.27.2 for the previous LTS)");
        }
    }

    /**
     * Refuses a plan that reads the database through Hibernate on a variant whose build has none: a build on Quarkus
     * 3.27.2 has no Hibernate Reactive here (it does not resolve), and such a request would answer 501 all window long.
     * A module not built yet is built on the lab's platform, which has it.
     */
    static void requireHibernate(Path labHome, ExperimentPlan plan) {
        if (plan.grid().values(Axis.DB_ACCESS).stream().noneMatch(a -> a == DbAccess.ORM)) {
            return;
        }
        for (Variant variant : plan.variants()) {
            if (!variant.endpoints().dbAccess().contains(DbAccess.ORM)) {
                continue;
            }
            // the event loop's own reads through Hibernate Reactive; a mistake on it (orm-on-event-loop) through ORM
            String artifact = variant.threads() == Variant.Threads.EVENT_LOOP && !variant.isMistake()
                    ? "quarkus-hibernate-reactive" : "quarkus-hibernate-orm";
            Path dependencies = labHome.resolve(variant.module()).resolve(DEPENDENCIES);
            try {
                if (Files.exists(dependencies) && Files.readAllLines(dependencies).stream()
                        .noneMatch(l -> l.startsWith("io.quarkus:" + artifact + "::jar:"))) {
                    throw new IllegalArgumentException("--db-access orm: " + variant.module() + " was built without "
                            + artifact + " (Quarkus " + quarkusVersion(labHome.resolve(variant.module())) + "), so "
                            + variant.label() + " cannot read the page through Hibernate: build it on the lab's"
                            + " platform (./mvnw clean package -DskipTests), or leave it out with --variants");
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + dependencies + ": " + e.getMessage());
            }
        }
    }

    private static String quarkusVersion(Path module) {
        try {
            return Files.readAllLines(module.resolve(DEPENDENCIES)).stream()
                    .filter(l -> l.startsWith("io.quarkus:quarkus-core::jar:")).findFirst()
                    .map(l -> l.substring("io.quarkus:quarkus-core::jar:".length())).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** This machine's processor, as /proc/cpuinfo names it (and every run's manifest records it). */
    static String cpuModel() {
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
