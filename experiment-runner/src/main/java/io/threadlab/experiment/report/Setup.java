package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/** How the run was set up, in a paragraph, and the schedule as it ran. */
final class Setup {

    /** One step of the schedule: what, when it began and how long it took. */
    record Step(String kind, String what, String beganAt, String took) {
    }

    private Setup() {
    }

    static String text(Run run) {
        RunManifest.Lab lab = run.lab();
        RunManifest.Confinement c = run.confinement();
        PlanFacts plan = run.plan();
        LoadOrigin origin = LoadOrigin.of(run);
        // What the run recorded, not what a run is meant to do: an unconfined run says so, a JDK it did not record
        // is not named, and compiler recordings are mentioned where they are.
        // a map's several --cpus: each JVM at its own, as its name says; the windows carry each JVM's quota
        List<String> quotas = Stream.concat(Stream.of(c.variantCpuQuota()),
                run.windows().stream().map(w -> w.at().has(Axis.CPUS) ? w.at().get(Axis.CPUS) : c.variantCpuQuota()))
                .filter(q -> !Double.isNaN(q)).distinct().map(Numbers::quota).toList();
        String confinement = c.limitsCpu() ? "Each JVM ran in its own CPU group at " + String.join(" or ", quotas)
                + " CPU" + (quotas.size() > 1 ? ", as its name says" : "") + " (" + c.method() + ")"
                : "The JVMs were NOT confined (" + c.method() + "): each could use the whole machine";
        String compiler = compilerRecordings(run) ? "; every JVM also kept a light JFR recording of compiler events"
                + " (jfr/compiler.jfc)" : "";
        return String.format(Locale.ROOT, "Quarkus %s on %s (%s), %s, %s (%d cores, %d MB). %s; the delay service"
                        + " (asked for %s) %s; %s. JVM flags for every service: %s%s. Knobs: %s. Closed model at %s"
                        + " users, %d s windows, each after load until the compiler was quiet (at least %d s); %s x %d"
                        + " repetitions, the variant order rotated each time. Warm-up: %s. Git %s%s.",
                lab.quarkusVersion(), lab.kernel(), run.jdk().map(v -> "JDK " + v).orElse("JDK not recorded"),
                lab.k6Version(), lab.cpuModel(), lab.machineCores(), lab.machineMemoryMb(), confinement,
                Numbers.delays(run.delays()), "none".equals(c.delayServiceCpuQuota()) ? "was not confined"
                        : "was confined too", origin.loadAlone() ? "k6 ran on another machine (below)"
                        : load(plan.loadCpus()), String.join(" ", run.manifest().jvmFlags()),
                compiler, knobs(run.manifest().knobs()), String.join(", ", plan.closedModelVus().stream()
                        .map(String::valueOf).toList()), plan.sampling().windowSeconds(),
                plan.sampling().settleSeconds(), jvmStarts(run), plan.sampling().repetitionsPerJvm(),
                run.warmUps().isEmpty() ? "none recorded" : run.warmUps().getFirst()
                        .strategy(), abbreviate(lab.gitSha()), lab.gitDirty() ? " (with uncommitted changes)" : "")
                + database(run.manifest().database()) + origin.sentences()
                + (run.manifest().scheduleAsRun().isEmpty() ? ""
                : " " + TimeSpent.line(TimeSpent.of(run.manifest(), Map.of())) + ".");
    }

    /** The lab's PostgreSQL, as it reported itself, in a run that had it. */
    private static String database(Map<String, Object> facts) {
        if (facts == null) {
            return "";
        }
        return String.format(Locale.ROOT, " The lab's PostgreSQL %s ran in a CPU group of its own at %s CPU, with %s"
                + " and %s rows.", facts.get("version"), facts.get("cpus"), facts.get("settings"), facts.get("rows"));
    }

    /** Whether the run directory holds the JVMs' compiler recordings (jfr/compiler/*.jfr). */
    static boolean compilerRecordings(Run run) {
        try (Stream<Path> files = Files.list(run.dir().resolve("jfr/compiler"))) {
            return files.anyMatch(f -> f.toString().endsWith(".jfr"));
        } catch (IOException e) {
            return false; // no such directory: none was kept
        }
    }

    /** The JVM starts measured, and how many precision on demand or an extension added to the plan's. */
    private static String jvmStarts(Run run) {
        int planned = run.plan().sampling().jvmStarts();
        int measured = run.windows().stream().mapToInt(WindowResult::jvm).max().orElse(planned);
        if (measured <= planned) {
            return planned + " JVM starts per variant";
        }
        int extensions = run.manifest().extensions().size();
        return String.format(Locale.ROOT, "%d JVM starts per variant (%d planned, %d added by precision on demand%s)",
                measured, planned, measured - planned, extensions == 0 ? ""
                        : extensions == 1 ? " in a later extension of the run" : " in " + extensions + " extensions");
    }

    /** Where k6 and the delay service ran during the measured windows ({@code --load-cpus}). */
    private static String load(String loadCpus) {
        return switch (loadCpus) {
            case "separate" -> "k6 and the delay service had a CPU of their own during the measured windows";
            case "compare" -> "k6 and the delay service had a CPU of their own in half the repetitions and shared the"
                    + " CPUs with the variants in the other half (compared below)";
            default -> "k6 and the delay service shared the machine's CPUs with the variants";
        };
    }

    /** Every knob but the URLs, with Quarkus' prefixes dropped. */
    private static String knobs(Map<String, Object> knobs) {
        List<String> parts = new ArrayList<>();
        knobs.forEach((key, value) -> {
            if (!key.endsWith(".url")) {
                parts.add(key.replace("quarkus.rest-client.delay.", "client ").replace("quarkus.", "") + "=" + value);
            }
        });
        return String.join(", ", parts);
    }

    private static String abbreviate(String sha) {
        return sha != null && sha.length() > 10 ? sha.substring(0, 10) : String.valueOf(sha);
    }

    static List<Step> schedule(Run run) {
        return run.manifest().scheduleAsRun().stream().map(s -> new Step(s.kind(), s.what(),
                Numbers.number(s.startedAtSeconds(), 0), Numbers.number(s.seconds(), 0))).toList();
    }
}
