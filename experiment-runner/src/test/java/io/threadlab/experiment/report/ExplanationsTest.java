package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.report.landscape.InFlightCost;
import io.threadlab.experiment.report.landscape.Outcome;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every explanation the report prints is chosen by the run's data: each is fed a run that shows what it explains,
 * where it must be there, and one that contradicts it, where it must not.
 */
class ExplanationsTest {

    private static final String COPIES = "copies its provider configuration on every call";
    private static final String FINALIZER = "registers each response with the JVM-wide finalizer lock";
    private static final String POOL_LOCK = "Apache HttpClient's single pool lock";
    private static final String THROTTLED = "keeps every waiter waiting until the next 100 ms period";

    @TempDir
    Path root;

    private int runs;

    // ---- where threads wait for each other ---------------------------------------------------------------------

    @Test
    void theClassicClientsLocksAreExplainedOnlyWhereTheirSitesWereRecorded() throws IOException {
        Run run = recorded("imperative", List.of(site("org.jboss.resteasy.util.snapshot.SnapshotSet",
                        "org.jboss.resteasy.util.snapshot.SnapshotSet.lockSnapshots:46", 11, 33, 4),
                site("java.lang.Object", "jakarta.ws.rs.core.Response.<init>:58", 7, 120, 60)), 80, 40);
        String note = Contention.note(run, Recorded.all(run));
        assertThat(note).contains("At the sites recorded here, the classic REST client " + COPIES,
                "(SnapshotSet.lockSnapshots) and " + FINALIZER + " (Response.<init>).",
                "throttled in 40 of 80 periods of the 0.5-CPU quota", THROTTLED, "the longest wait at them was 60 ms")
                .doesNotContain(POOL_LOCK, "initializeCommon", "SnapshotMap");
    }

    @Test
    void sitesTheLabDoesNotExplainAreNamedInsteadOfTheClassicClientsLocks() throws IOException {
        Run run = recorded("reactive", List.of(site("java.lang.Object",
                "io.netty.channel.nio.SelectedSelectionKeySetSelector.select:62", 5, 60, 54)), 70, 3);
        String note = Contention.note(run, Recorded.all(run));
        assertThat(note).contains("None of these sites is one the lab explains",
                "the longest waits in all were at SelectedSelectionKeySetSelector.select (reactive, 60 ms in all)")
                .doesNotContain(COPIES, FINALIZER, POOL_LOCK, THROTTLED);
    }

    @Test
    void theQuotaIsNotBlamedForWaitsInRecordingsThatWereNeverThrottled() throws IOException {
        Run run = recorded("imperative", List.of(site("org.jboss.resteasy.util.snapshot.SnapshotMap",
                "org.jboss.resteasy.util.snapshot.SnapshotMap.lockSnapshots:55", 22, 505, 38)), 80, 0);
        String note = Contention.note(run, Recorded.all(run));
        assertThat(note).contains(COPIES, "(SnapshotMap.lockSnapshots)", "never throttled (0 of 80 quota periods)")
                .doesNotContain(THROTTLED);
    }

    // ---- the mistakes' cards -------------------------------------------------------------------------------------

    @Test
    void theGallerysExplanationIsQuotedOnlyWhereTheRecordingShowsTheMistakesSignature() throws IOException {
        String gallery = MistakeTexts.of("blocking-event-loop");
        assertThat(gallery).as("the bundled gallery").contains("Why it happens");

        MistakeCards.Card found = card(mistakeRun("blocking-event-loop", "reactive", List.of("blocking-event-loop"),
                Map.of()), "blocking-event-loop");
        assertThat(found.explanation()).isEqualTo(gallery);
        assertThat(found.noEvidence()).isNull();

        MistakeCards.Card notFound = card(mistakeRun("blocking-event-loop", "reactive", List.of(), Map.of()),
                "blocking-event-loop");
        assertThat(notFound.explanation()).doesNotContain("Why it happens").contains("did not find this mistake's"
                + " signature (blocking-event-loop) in its 1 recording");
        assertThat(notFound.noEvidence()).isEqualTo("the analysis flagged nothing in this mistake's 1 recording");

        MistakeCards.Card unrecorded = card(mistakeRun("blocking-event-loop", "reactive", null, Map.of()),
                "blocking-event-loop");
        assertThat(unrecorded.explanation()).doesNotContain("Why it happens").startsWith("No recording of this"
                + " mistake was analysed");
        assertThat(unrecorded.noEvidence()).isEqualTo("no recording of this mistake was analysed");
    }

    @Test
    void aMistakeIsKnownByTheSignatureTheGalleryTableGivesIt() throws IOException {
        // the pool left at 50 is recognised as the cap it causes, not by its own name
        MistakeCards.Card card = card(mistakeRun("default-connection-pool", "imperative",
                List.of("connection-pool-cap"), Map.of()), "default-connection-pool");
        assertThat(card.explanation()).isEqualTo(MistakeTexts.of("default-connection-pool")).isNotEmpty();
    }

    @Test
    void theGalleryTableNamesTheSignaturesOfTheMistakesThatOnlyAFlagRuns() {
        assertThat(MistakeTexts.recognisedAs("jdbc-on-event-loop")).contains("jdbc-on-event-loop");
        assertThat(MistakeTexts.recognisedAs("small-pool-virtual-threads")).contains("database-pool-cap");
        assertThat(MistakeTexts.recognisedAs("blocking-join-event-loop")).contains("blocking-join-event-loop");
        assertThat(MistakeTexts.recognisedAs("fanout-worker-starvation")).contains("fanout-worker-starvation");
        // the pool's wait leaves no event: it is known by the window's figures, the calls held at the pool's size
        assertThat(MistakeTexts.recognisedAs("fanout-connection-pool")).contains("client-pool-cap");
        assertThat(MistakeTexts.recognisedAs("cpu-on-worker")).isEmpty(); // a reference, named by no mistake
    }

    @Test
    void theGalleryWrittenForAnotherJdkSaysSoBeforeItsExplanation() throws IOException {
        MistakeCards.Card on21 = card(mistakeRun("pinned-class-init", "virtual-thread", List.of("pinned-class-init"),
                Map.of("javaVersion", "21.0.5")), "pinned-class-init");
        assertThat(on21.explanation()).startsWith("*The gallery's explanation below was written for JDK 25 and"
                + " Quarkus 3.27; this run ran JDK 21.0.5 and Quarkus 3.27.2.*")
                .endsWith(MistakeTexts.of("pinned-class-init"));
        MistakeCards.Card on25 = card(mistakeRun("pinned-class-init", "virtual-thread", List.of("pinned-class-init"),
                Map.of("javaVersion", "25.0.3")), "pinned-class-init");
        assertThat(on25.explanation()).isEqualTo(MistakeTexts.of("pinned-class-init"));
    }

    // ---- the notes -----------------------------------------------------------------------------------------------

    @Test
    void howFarApartPairedWindowsWereIsMeasuredNotAssumed() throws IOException {
        Instant start = Instant.parse("2026-11-23T10:00:00Z");
        Run close = run(List.of(closed("imperative", 100, 1000).startedAt(start).build(),
                closed("reactive", 100, 3000).startedAt(start.plusSeconds(40)).build()));
        assertThat(Notes.apart(close)).isEqualTo("measured at most 40 s apart, ");
        Run far = run(List.of(closed("imperative", 100, 1000).startedAt(start).build(),
                closed("reactive", 100, 3000).startedAt(start.plusSeconds(300)).build()));
        assertThat(Notes.apart(far)).isEqualTo("measured at most 5 min apart, ");
        assertThat(Notes.ratios(far)).doesNotContain("a minute apart");
    }

    @Test
    void theBoostIsDescribedOnlyWhereTheJvmsWereBoosted() throws IOException {
        List<WindowResult> windows = List.of(closed("imperative", 100, 1000).build());
        String boosted = Notes.warmUp(run(windows, List.of(SmallRuns.warmUp("imperative", true, Map.of(), Map.of(),
                List.of())), Map.of()));
        assertThat(boosted).contains("its quota was raised to 2.0 CPUs", "before and after the boost");
        WarmUpResult atQuota = new WarmUpResult("imperative-jvm1", "imperative", 1, "at 0.50 CPU from the JVM's"
                + " start", 0.5, 0.5, true, 80, 0, 0, null, List.of(new WarmUpResult.Level(100, 80, true,
                "finished", 0.01, 0.0, 1000)), List.of(), new WarmUpResult.Ergonomics(Map.of(), Map.of(), List.of(),
                Map.of(), Map.of()), 40);
        String unboosted = Notes.warmUp(run(windows, List.of(atQuota), Map.of()));
        assertThat(unboosted).contains("without a boost").doesNotContain("raised", "the boost");
    }

    @Test
    void whereTheLoadRanSaysHowManyJvmStartsRanBothPlacements() throws IOException {
        List<WindowResult> both = new ArrayList<>();
        for (int jvm = 1; jvm <= 2; jvm++) {
            both.add(closed("imperative", 100, 1000).jvm(jvm).repetition(2 * jvm - 1).build());
            both.add(closed("imperative", 100, 1000).jvm(jvm).repetition(2 * jvm).separateLoad().build());
        }
        assertThat(LoadPlacementView.of(run(both)).note()).endsWith("every JVM start ran both.");
        List<WindowResult> one = new ArrayList<>(both.subList(0, 3));
        assertThat(LoadPlacementView.of(run(one)).note()).contains("1 of 2 JVM starts ran both")
                .doesNotContain("every JVM start");
    }

    @Test
    void aWorkerLineIsCalledABlendOnlyWhereItsPointsCrossTheWorkerMaximum() {
        // in flight = users (Little's law, as the windows are built): 20 and 100 below 200 workers, 1,000 above
        List<WindowResult> crossing = List.of(closed("imperative", 20, 100).build(),
                closed("imperative", 100, 500).build(), closed("imperative", 1000, 2000).build());
        assertThat(LandscapeView.inFlightNote(InFlightCost.of(crossing), crossing))
                .contains("a line is a blend, here for imperative (200 workers)");
        List<WindowResult> below = List.of(closed("imperative", 10, 100).build(),
                closed("imperative", 50, 500).build(), closed("imperative", 150, 1000).build());
        assertThat(LandscapeView.inFlightNote(InFlightCost.of(below), below)).doesNotContain("blend");
        List<WindowResult> eventLoop = List.of(closed("reactive", 20, 100).build(),
                closed("reactive", 100, 500).build(), closed("reactive", 1000, 2000).build());
        assertThat(LandscapeView.inFlightNote(InFlightCost.of(eventLoop), eventLoop)).doesNotContain("blend");
    }

    @Test
    void aPointWhoseK6CountLaggedSaysItsThroughputIsTheDelayServicesOnlyWhereItIs() {
        // k6 counted 30,000 where the delay service served 36,000: more apart than 200 users allow
        WindowResult lagging = closed("reactive", 200, 3000).served(36_000, 0.01).build();
        String note = LandscapeView.point(Outcome.of(lagging, false, 2, false),
                List.of(lagging)).note();
        assertThat(note).contains("k6 counted 30,000 answers", "its throughput is the delay service's count");
        // with failures the window's throughput is k6's count: the note does not claim otherwise
        WindowResult failing = closed("reactive", 200, 3000).served(36_000, 0.01).errors(5, Map.of("timeout", 5L))
                .build();
        assertThat(LandscapeView.point(Outcome.of(failing, false, 2, false),
                List.of(failing)).note()).contains("k6 counted 30,000 answers")
                .doesNotContain("delay service's count");
        // counts that agree: no such note
        WindowResult agreeing = closed("reactive", 200, 3000).served(30_150, 0.01).build();
        assertThat(LandscapeView.point(Outcome.of(agreeing, false, 2, false),
                List.of(agreeing)).note()).doesNotContain("k6 counted");
    }

    // ---- the claims, the setup -----------------------------------------------------------------------------------

    @Test
    void aClaimsRegimeIsCalledCpuBoundOnlyWhereBothVariantsUsedTheirQuota() throws IOException {
        Run bound = run(List.of(closed("virtual-thread", 3000, 4000).delay(300).cpuCores(0.49).build(),
                closed("reactive", 3000, 5000).delay(300).cpuCores(0.5).build()));
        assertThat(Claims.cpuUse(bound, 300, 3000, io.threadlab.experiment.plan.Variant.VIRTUAL_THREAD,
                io.threadlab.experiment.plan.Variant.REACTIVE))
                .isEqualTo("; CPU-bound: virtual-thread used 98 % and reactive 100 % of their 0.5 CPU here");
        Run idle = run(List.of(closed("virtual-thread", 3000, 4000).delay(300).cpuCores(0.3).build(),
                closed("reactive", 3000, 5000).delay(300).cpuCores(0.5).build()));
        assertThat(Claims.cpuUse(idle, 300, 3000, io.threadlab.experiment.plan.Variant.VIRTUAL_THREAD,
                io.threadlab.experiment.plan.Variant.REACTIVE)).startsWith("; not both CPU-bound: virtual-thread"
                + " used 60 %");
        Run elsewhere = run(List.of(closed("virtual-thread", 100, 4000).build(),
                closed("reactive", 100, 5000).build()));
        assertThat(Claims.cpuUse(elsewhere, 300, 3000, io.threadlab.experiment.plan.Variant.VIRTUAL_THREAD,
                io.threadlab.experiment.plan.Variant.REACTIVE)).isEmpty();
    }

    @Test
    void theSetupSaysWhatTheRunRecordedOfItsConfinementJdkAndCompilerRecordings() throws IOException {
        List<WindowResult> windows = List.of(closed("imperative", 100, 1000).build());
        Run confined = run(windows);
        assertThat(Setup.text(confined)).contains("(JDK 25.0.1)", "Each JVM ran in its own CPU group at 0.5 CPU"
                + " (cgroup-v2)").doesNotContain("compiler events");
        Files.createDirectories(confined.dir().resolve("jfr/compiler"));
        Files.writeString(confined.dir().resolve("jfr/compiler/imperative-jvm1.jfr"), "");
        assertThat(Setup.text(confined)).contains("a light JFR recording of compiler events");

        Run unconfined = run(windows, List.of(), Map.of("confinement", Map.of("engine", "compose", "method",
                "none", "limits_cpu", false)));
        assertThat(Setup.text(unconfined)).contains("The JVMs were NOT confined (none)", "(JDK not recorded)")
                .doesNotContain("own CPU group");
    }

    @Test
    void aRunOfSeveralQuotasSaysEachJvmRanAtItsOwn() throws IOException {
        Run two = run(List.of(closed("reactive", 1000, 2000).quota(0.25).cpuCores(0.25).build(),
                closed("reactive", 1000, 4000).quota(0.5).build()));
        assertThat(Setup.text(two)).contains("Each JVM ran in its own CPU group at 0.5 or 0.25 CPU, as its name says"
                + " (cgroup-v2)");
    }

    @Test
    void theSetupSaysWhereTheLoadCameFromAndWhatTheWireAdds() throws IOException {
        List<WindowResult> windows = List.of(closed("imperative", 100, 1000).latency(20, 40, 90, 120).build());
        Map<String, Object> wire = Map.of("method", "TCP connect", "samples", 200, "median_ms", 0.412,
                "p99_ms", 0.9);
        Map<String, Object> engine = Map.of("kind", "another Docker engine", "endpoint", "tcp://10.0.0.9:2375",
                "name", "box", "cores", 8, "operating_system", "Debian");
        Map<String, Object> load = Map.of("kind", "this machine (k6 as a local process)", "host", "laptop",
                "cores", 4);
        Run remote = run(windows, List.of(), Map.of("placement", Map.of("services", engine, "load", load,
                "same_machine", false, "round_trip", wire)));
        assertThat(Setup.text(remote)).contains("k6 ran on another machine (below)",
                "The load came from another machine: the services ran on another Docker engine tcp://10.0.0.9:2375"
                        + " (box, 8 cores, Debian), k6 on this machine (k6 as a local process) (laptop, 4 cores)",
                "0.412 ms median, 0.900 ms p99", "the summary gives the p50 and p99 less 0.412 ms as well")
                .doesNotContain("shared the machine's CPUs");
        // the summary subtracts it: the p50 and p99 less the wire beside k6's own
        LoadOrigin origin = LoadOrigin.of(remote);
        assertThat(SummaryTables.summaryHeadings(origin)).extracting(SummaryTables.Heading::heading)
                .endsWith("p50 less the wire", "p99 less the wire");
        assertThat(SummaryTables.summary(Cell.all(remote), origin).getFirst().values()).endsWith("19.6", "89.6");
        // another engine on this machine: a wire all the same (the engine's bridge and port forwarding)
        Run loopback = run(windows, List.of(), Map.of("placement", Map.of("services", engine, "load", load,
                "same_machine", true, "round_trip", wire)));
        assertThat(Setup.text(loopback)).contains("The load came from the same machine", "shared its CPUs",
                "k6 and the delay service shared the machine's CPUs", "less 0.412 ms");
        // the JVMs on this machine: the round trip is said, nothing subtracted
        Run local = run(windows, List.of(), Map.of("placement", Map.of("services", Map.of("kind",
                "this machine (local JVMs)"), "load", load, "same_machine", true, "round_trip", wire)));
        assertThat(Setup.text(local)).contains("0.412 ms median").doesNotContain("The load came from", "less 0.412",
                "k6 ran with");
        // k6's collector as the run set it
        Map<String, Object> collected = new java.util.LinkedHashMap<>(load);
        collected.put("environment", new java.util.TreeMap<>(Map.of("GOMEMLIMIT", "8GiB", "GOGC", "400")));
        assertThat(Setup.text(run(windows, List.of(), Map.of("placement", Map.of("services", Map.of("kind",
                "this machine (local JVMs)"), "load", collected, "same_machine", true, "round_trip", wire)))))
                .contains("k6 ran with GOGC=400, GOMEMLIMIT=8GiB, its collector's settings");
        assertThat(SummaryTables.summaryHeadings(LoadOrigin.of(local))).extracting(SummaryTables.Heading::heading)
                .doesNotContain("p50 less the wire");
        assertThat(Setup.text(run(windows))).as("a run from before placements").doesNotContain("round trip");
    }

    @Test
    void theSetupNamesK6sContainerAndItsMachineAndSubtractsTheWireOnlyWhereTheServicesRanElsewhere()
            throws IOException {
        List<WindowResult> windows = List.of(closed("imperative", 100, 1000).latency(20, 40, 90, 120).build());
        Map<String, Object> wire = Map.of("method", "k6's TCP connect", "samples", 200, "median_ms", 0.5,
                "p99_ms", 0.9);
        Map<String, Object> container = Map.of("kind", "a container on a Docker engine", "endpoint",
                "tcp://10.0.0.7:2375", "host", "loadbox", "cores", 16);
        Map<String, Object> engine = Map.of("kind", "another Docker engine", "endpoint", "tcp://10.0.0.9:2375",
                "name", "box", "cores", 8, "operating_system", "Debian");
        Run apart = run(windows, List.of(), Map.of("placement", Map.of("services", engine, "load", container,
                "same_machine", false, "round_trip", wire)));
        assertThat(Setup.text(apart)).contains("The load came from another machine", "k6 in a container on the"
                + " Docker engine at tcp://10.0.0.7:2375 (loadbox, 16 cores)", "less 0.500 ms");
        // the JVMs here, k6 in a container here: named, the wire said, nothing subtracted (the summary doesn't)
        Run here = run(windows, List.of(), Map.of("placement", Map.of("services", Map.of("kind",
                "this machine (local JVMs)"), "load", container, "same_machine", true, "round_trip", wire)));
        assertThat(Setup.text(here)).contains("The load came from the same machine: the services ran on this"
                + " machine (local JVMs), k6 in a container", "0.500 ms median").doesNotContain("less 0.500");
        assertThat(SummaryTables.summaryHeadings(LoadOrigin.of(here))).extracting(SummaryTables.Heading::heading)
                .doesNotContain("p50 less the wire");
    }

    // ---- the fixture -------------------------------------------------------------------------------------------

    private static Windows closed(String variant, int users, double rps) {
        return Windows.closed(variant, users, rps);
    }

    private static Map<String, Object> site(String monitor, String site, int count, double totalMs, double maxMs) {
        return Map.of("class", monitor, "site", site, "group", "worker", "count", count, "total_ms", totalMs,
                "max_ms", maxMs);
    }

    /** A run of one variant at 100 users, its recorded twin analysed with these sites and this throttling. */
    private Run recorded(String variant, List<Map<String, Object>> sites, long periods, long throttled)
            throws IOException {
        WindowResult twin = closed(variant, 100, 1000).recorded().build();
        Map<String, Object> recording = new LinkedHashMap<>();
        recording.put("window", twin.window().id());
        recording.put("variant", variant);
        recording.put("label", variant);
        recording.put("monitor_enter_sites", sites);
        recording.put("cpu_throttling", Map.of("periods", periods, "throttledPeriods", throttled, "throttledMs",
                throttled * 50.0));
        return Run.read(SmallRuns.write(dir(), List.of(closed(variant, 100, 1000).build(), twin), List.of(),
                Map.of(), Map.of("recordings", List.of(recording))));
    }

    /**
     * A mistake and what it spoils at 100 users; the mistake's recorded twin analysed with these mistakes found
     * (null: no analysis at all), and JVMs that reported {@code runtime} before their warm-up.
     */
    /**
     * A mistake that blocks its event loops answers not even the runner's reads: its points are lost, and its card
     * says so with the cause, rather than a row of dashes alone (the fan-out mistakes' run, 2026-11-26).
     */
    @Test
    void aMistakesCardSaysWhichOfItsPointsWereNotMeasuredAndWhy() throws IOException {
        List<WindowResult> windows = List.of(closed("reactive", 100, 1000).build());
        Map<String, Object> plan = Map.of("mode", "run", "delays_ms", List.of(10), "variants",
                List.of("reactive", "blocking-join-event-loop"), "closed_model_vus", List.of(100), "mistakes",
                Map.of("blocking-join-event-loop", "reactive"));
        String lost = "blocking-join-event-loop-10ms-fan4-closed-100-1: blocking-join-event-loop (JVM 1) did not"
                + " finish its warm-up (its service stopped answering: mistakes-service did not answer GET"
                + " /lab/runtime)";
        Run run = Run.read(SmallRuns.write(dir(), windows, List.of(), Map.of("plan", plan, "warnings",
                List.of(RunManifest.POINT_LOST + lost, RunManifest.POINT_LOST + "reactive-10ms-closed-500-1: other")),
                null));
        assertThat(card(run, "blocking-join-event-loop").failures()).containsExactly("not measured: " + lost);
    }

    private Run mistakeRun(String mistake, String spoils, List<String> found, Map<String, Object> runtime)
            throws IOException {
        WindowResult twin = closed(mistake, 100, 500).recorded().build();
        List<WindowResult> windows = List.of(closed(spoils, 100, 1000).build(), closed(mistake, 100, 500).build(),
                twin);
        List<WarmUpResult> warmUps = runtime.isEmpty() ? List.of() : List.of(SmallRuns.warmUp(spoils, true, runtime,
                runtime, List.of()), SmallRuns.warmUp(mistake, true, runtime, runtime, List.of()));
        Map<String, Object> plan = Map.of("mode", "run", "delays_ms", List.of(10), "variants",
                List.of(spoils, mistake), "closed_model_vus", List.of(100), "mistakes", Map.of(mistake, spoils));
        Object analysis = found == null ? null : Map.of("recordings", List.of(Map.of("window", twin.window().id(),
                "variant", spoils, "label", mistake, "mistakes", found.stream().map(name -> Map.of("name", name,
                        "harmful", true, "group", "worker", "evidence", name + " seen")).toList())));
        return Run.read(SmallRuns.write(dir(), windows, warmUps, Map.of("plan", plan), analysis));
    }

    private static MistakeCards.Card card(Run run, String label) {
        return MistakeCards.of(run, new Ratios(run), Recorded.all(run)).stream().filter(c -> c.label().equals(label))
                .findFirst().orElseThrow();
    }

    private Run run(List<WindowResult> windows) throws IOException {
        return run(windows, List.of(), Map.of());
    }

    private Run run(List<WindowResult> windows, List<WarmUpResult> warmUps, Map<String, Object> changed)
            throws IOException {
        return Run.read(SmallRuns.write(dir(), windows, warmUps, changed, null));
    }

    private Path dir() throws IOException {
        return Files.createDirectories(root.resolve("run-" + ++runs));
    }
}
