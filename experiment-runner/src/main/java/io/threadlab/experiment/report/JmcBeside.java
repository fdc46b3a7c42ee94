package io.threadlab.experiment.report;

import io.threadlab.experiment.analyse.AnalysisFile;
import io.threadlab.experiment.analyse.Mistakes;
import io.threadlab.experiment.analyse.jmc.JmcRecording;
import io.threadlab.experiment.analyse.jmc.RuleResult;
import io.threadlab.experiment.analyse.jmc.VirtualThreadPinnedRule;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What JDK Mission Control will say, beside what the lab says: for each recorded window, the questions both answer
 * (contention, the collector, socket waits, threads, pinning, other processes' CPU, stack depth, the mistakes'
 * signatures), JMC's rule and its severity on one side, the lab's verdict on the other, whether they give the same
 * answer, and where they do not, why, from the recording.
 */
final class JmcBeside {

    /** One question on one recording. {@code same}: "yes", "no", or "–" where one side could not answer. */
    record Row(String question, String jmc, String lab, String same, String why) {
    }

    /** One recording's rows, and JMC's other flags, which the lab has no verdict on. */
    record Table(String window, String label, String html, double seconds, List<Row> rows, List<String> others,
                 String failure) {
    }

    /**
     * Threads' time blocked on monitors, summed, over the recording's length, from which the lab calls the contention
     * worth naming: a tenth of the window, which at a 1-CPU quota delays the requests about as much.
     */
    static final double BLOCKED_SHARE = 0.10;
    /** The share of the window the collector paused the JVM from which the lab names it (GcGap's). */
    static final double PAUSED_SHARE = 0.05;
    /** Threads' time in reads from the downstream, summed, over the window, from which the reads are waits. */
    static final double READING_SHARE = 0.10;
    /** k6's and the delay service's CPU over the machine's, from which the lab says they competed for it. */
    static final double OTHERS_SHARE = 0.20;
    /** The rules a row of the table speaks to: JMC's other flags are listed apart. */
    private static final Set<String> ASKED = Set.of("JavaBlocking", "GarbageCollectionInfoRule", "GcPauseRatio",
            "LongGcPause", "SocketRead", "FewSampledThreads", VirtualThreadPinnedRule.ID, "CompareCpu",
            "StackdepthSetting");

    private JmcBeside() {
    }

    static List<Table> of(Run run) {
        Optional<AnalysisFile> analysis = run.analysis();
        if (analysis.isEmpty() || analysis.get().jmc().isEmpty()) {
            return List.of();
        }
        boolean shared = !"separate".equals(run.plan().loadCpus()) && LoadOrigin.of(run).loadAlone() == false;
        List<Table> tables = new ArrayList<>();
        for (AnalysisFile.Recording r : analysis.get().recordings()) {
            Optional<JmcRecording> found = analysis.get().jmc(r.window());
            if (found.isEmpty()) {
                continue;
            }
            JmcRecording j = found.get();
            Optional<io.threadlab.experiment.collect.WindowResult> window = run.windows().stream()
                    .filter(w -> w.window().id().equals(r.window())).findFirst();
            List<Row> rows = j.failure() != null && j.rules().isEmpty() ? List.of() : List.of(contention(r, j),
                    collector(r, j), sockets(r, j), threads(r, j), pinning(r, j),
                    otherCpu(j, shared, window, run.lab().machineCores()), stackDepth(j));
            List<Row> withMistakes = new ArrayList<>(rows);
            mistakes(r, j).ifPresent(withMistakes::add);
            tables.add(new Table(r.window(), r.label(), j.html(), j.seconds(), withMistakes, j.flagged().stream()
                    .filter(rule -> !ASKED.contains(rule.id())).map(JmcBeside::said).toList(), j.failure()));
        }
        return tables;
    }

    private static Row contention(AnalysisFile.Recording r, JmcRecording j) {
        Optional<RuleResult> rule = j.rule("JavaBlocking");
        double blockedMs = r.waits().monitorEnterSites().stream().mapToDouble(s -> s.totalMs()).sum();
        double share = blockedMs / Math.max(1, r.coverage().seconds() * 1000);
        boolean labNames = share >= BLOCKED_SHARE;
        String lab = r.waits().monitorEnterSites().isEmpty() ? "no thread waited to enter a monitor"
                : String.format(Locale.ROOT, "threads blocked %,.0f ms in all, %.2f× the recording's length, most"
                + " at %s", blockedMs, share, r.waits().monitorEnterSites().getFirst().shortForm()) + (r.judgement().unexpected().stream()
                .anyMatch(u -> u.contains("monitor")) ? "; UNEXPECTED for this variant" : "; as expected of it");
        String why = "";
        if (rule.isPresent() && rule.get().flagged() != labNames) {
            why = rule.get().flagged() ? String.format(Locale.ROOT, "JMC rates any blocked time against fixed"
                    + " limits; the lab names contention from %.1f× the recording's length, summed over threads, and"
                    + " this is less", BLOCKED_SHARE) : String.format(Locale.ROOT, "the lab names contention from"
                    + " %.1f× the recording's length; JMC rates the same total lower", BLOCKED_SHARE);
        } else if (rule.isPresent() && rule.get().warning() && labNames && !r.waits().monitorEnterSites().isEmpty()) {
            // the client's part only where the site is one of its own: through Hibernate, the imperative variant's
            // threads waited most at Caffeine's map under Hibernate's plan cache, which no REST client takes
            var top = r.waits().monitorEnterSites().getFirst();
            why = "both see it; the lab names where: " + top.shortForm() + (Contention.explains(top.site())
                    ? ", which the classic REST client takes on every call (docs/classic-rest-client.md)" : "");
        }
        return row("monitor contention", rule, lab, labNames, why);
    }

    private static Row collector(AnalysisFile.Recording r, JmcRecording j) {
        Optional<RuleResult> rule = j.rule("GcPauseRatio");
        double share = r.pauses().gcPauseMs() / Math.max(1, r.coverage().seconds() * 1000);
        boolean labNames = share >= PAUSED_SHARE;
        String lab = String.format(Locale.ROOT, "paused %.1f %% of the recording (%,.0f ms)", share * 100,
                r.pauses().gcPauseMs()) + (labNames ? ": enough to stretch every request in flight" : "");
        boolean judged = rule.filter(x -> !x.severity().equals(RuleResult.NOT_APPLICABLE)).isPresent();
        String why = !judged ? "JMC's pause rules need jdk.GCPhasePause, which this recording's settings did not"
                + " record (jfr/threads.jfc records it now): it could say what caused collections, not how long they"
                + " stopped the JVM" : rule.get().flagged() != labNames ? String.format(Locale.ROOT, "JMC rates the"
                + " worst minute's pauses against 5 %% (information) and 10 %% (warning); the lab names them from"
                + " %.0f %% of the window, where they hold every request in flight", PAUSED_SHARE * 100) : "";
        return row("the collector's pauses", rule, lab, labNames, why);
    }

    private static Row sockets(AnalysisFile.Recording r, JmcRecording j) {
        Optional<RuleResult> rule = j.rule("SocketRead");
        int readers = r.groups().values().stream().mapToInt(AnalysisFile.Group::threadsReadingDownstream).sum();
        long reads = r.groups().values().stream().mapToLong(g -> g.sockets().socketReadsDownstream() == null ? 0
                : g.sockets().socketReadsDownstream().count()).sum();
        double readMs = r.groups().values().stream().mapToDouble(g -> g.sockets().socketReadsDownstream() == null ? 0
                : g.sockets().socketReadsDownstream().totalMs()).sum();
        boolean labNames = readMs / Math.max(1, r.coverage().seconds() * 1000) >= READING_SHARE;
        String lab = reads == 0 ? "no thread waited in a read from the downstream"
                : String.format(Locale.ROOT, "%,d reads from the downstream by %,d thread%s, %,.0f ms in all%s",
                reads, readers, readers == 1 ? "" : "s", readMs, labNames ? ": the threads wait out their calls"
                        : ": a few reads stretched, no thread waits on the downstream");
        String why = rule.isPresent() && rule.get().flagged() != labNames ? "JMC rates the single longest read"
                + " against fixed limits (information from 275 ms); the lab asks whether threads wait in reads at all:"
                + " a blocking model's workers do, by design, however short each wait" : "";
        return row("threads waiting on sockets", rule, lab, labNames, why);
    }

    private static Row threads(AnalysisFile.Recording r, JmcRecording j) {
        Optional<RuleResult> rule = j.rule("FewSampledThreads");
        long groups = r.groups().values().stream().filter(g -> g.samples().executionSamples() > 0).count();
        int threadsSeen = r.groups().values().stream().mapToInt(AnalysisFile.Group::threads).sum();
        String lab = String.format(Locale.ROOT, "%,d threads in %d sampled groups, %,d virtual threads started",
                threadsSeen, groups, r.virtualThreads().virtualThreadsStarted());
        String why = rule.isPresent() && rule.get().flagged() && r.virtualThreads().virtualThreadsStarted() > 0
                ? "JMC keys threads on the OS thread, which every virtual thread shares: it sees them as one thread"
                : rule.isPresent() && rule.get().flagged() ? "at a 1-CPU quota the JVM has one processor to run"
                + " threads on; JMC compares against the host's hardware threads" : "";
        return new Row("threads doing the work", rule.map(JmcBeside::said).orElse("no such rule ran"), lab, "–", why);
    }

    private static Row pinning(AnalysisFile.Recording r, JmcRecording j) {
        Optional<RuleResult> rule = j.rule(VirtualThreadPinnedRule.ID);
        long pinned = r.virtualThreads().virtualThreadsPinned() == null ? 0 : r.virtualThreads().virtualThreadsPinned().count();
        String lab = pinned == 0 ? "no virtual thread pinned" : String.format(Locale.ROOT, "%,d pinned, at %s",
                pinned, r.virtualThreads().pinnedAt().keySet());
        return row("virtual threads pinned (the lab's rule, which JMC lacks)", rule, lab, pinned > 0, "");
    }

    private static Row otherCpu(JmcRecording j, boolean shared,
                                Optional<io.threadlab.experiment.collect.WindowResult> window, int machineCores) {
        Optional<RuleResult> rule = j.rule("CompareCpu");
        if (!shared || window.isEmpty() || machineCores <= 0) {
            return row("CPU taken by other processes", rule, shared ? "not read in this window"
                    : "k6 and the delay service ran apart", false, "");
        }
        double seconds = Math.max(1e-9, window.get().load().windowSeconds());
        double others = (window.get().instruments().k6CpuSeconds() + window.get().instruments().delayCpuSeconds())
                / seconds;
        boolean labNames = others / machineCores >= OTHERS_SHARE;
        String lab = String.format(Locale.ROOT, "k6 and the delay service used %.2f of the machine's %d CPUs"
                + " (%.0f %%) beside the service", others, machineCores, others / machineCores * 100);
        String why = rule.isEmpty() ? "" : rule.get().flagged() != labNames ? String.format(Locale.ROOT, "JMC"
                + " rates the other processes' share of the machine from its own samples against its own limits; the"
                + " lab names k6 and the delay service from %.0f %% of the machine's CPU, read over the window",
                OTHERS_SHARE * 100) : rule.get().flagged() ? "the other processes are the lab's own load generator"
                + " and downstream" : "";
        return row("CPU taken by other processes", rule, lab, labNames, why);
    }

    private static Row stackDepth(JmcRecording j) {
        Optional<RuleResult> rule = j.rule("StackdepthSetting");
        return new Row("stack traces cut short", rule.map(JmcBeside::said).orElse("no such rule ran"), "the lab reads"
                + " the innermost frames, up to the first outside the JDK, which a cut stack keeps", "–",
                rule.isPresent() && rule.get().flagged() ? "JMC's trees miss the outermost frames of the deepest"
                + " stacks (JFR keeps 64 by default); the lab's analysis does not need them" : "");
    }

    /** A mistake's recording: the lab's signature beside every rule JMC flags on it. */
    private static Optional<Row> mistakes(AnalysisFile.Recording r, JmcRecording j) {
        List<String> found = r.judgement().mistakes().stream().filter(Mistakes.Mistake::harmful).map(Mistakes.Mistake::name)
                .toList();
        if (found.isEmpty() && r.label().equals(r.variant())) {
            return Optional.empty();
        }
        List<String> flagged = j.flagged().stream().map(x -> x.severity() + " " + x.id()).toList();
        String jmc = flagged.isEmpty() ? "nothing flagged" : String.join(", ", flagged);
        String lab = found.isEmpty() ? "no mistake's signature" : String.join(", ", found);
        return Optional.of(new Row("the mistake's signature", jmc, lab, "–", found.isEmpty() ? ""
                : flagged.isEmpty() ? "JMC's first page says nothing of it: look where the lab's signature points"
                + " (docs/mistakes.md)" : "JMC flags what the mistake does to the JVM, the lab names the mistake"));
    }

    private static Row row(String question, Optional<RuleResult> rule, String lab, boolean labNames, String why) {
        String jmc = rule.map(JmcBeside::said).orElse("no such rule ran");
        boolean answered = rule.isPresent() && !rule.get().severity().equals(RuleResult.NOT_APPLICABLE)
                && !rule.get().severity().equals(RuleResult.FAILED);
        String same = !answered ? "–" : rule.get().flagged() == labNames ? "yes" : "no";
        return new Row(question, jmc, lab, same, why);
    }

    /** "WARNING JavaBlocking (score 82): summary". */
    static String said(RuleResult r) {
        return r.severity() + " " + r.id() + (r.score() == null ? "" : String.format(Locale.ROOT, " (score %.0f)",
                r.score())) + ": " + r.summary();
    }
}
