package io.threadlab.experiment.analyse;

import java.util.LinkedHashMap;
import java.util.Map;

/** One recording's entry in analysis.json: its analysis' numbers, with the verdicts they make. */
final class RecordingEntry {

    private RecordingEntry() {
    }

    /** Groups that neither ran a thread nor were sampled are left out. */
    static AnalysisFile.Recording of(RecordingAnalysis a, Verdicts verdicts) {
        Map<String, AnalysisFile.Group> byGroup = new LinkedHashMap<>();
        long totalSamples = a.totalSamples();
        a.groups().forEach((kind, stats) -> {
            if (!stats.threads.isEmpty() || stats.executionSamples > 0) {
                byGroup.put(kind.name().toLowerCase(), stats.toGroup(totalSamples, a.downstream().downstream()));
            }
        });
        WindowDownstream downstream = a.downstream();
        VirtualThreadStats virtuals = a.virtualThreads();
        WaitedAt waitedAt = a.waitedAt();
        MeasuredWindow measured = a.measured();
        MistakeSignals signals = a.signals();
        return new AnalysisFile.Recording(a.file().toString(), a.window(), a.variant(), a.label(),
                new AnalysisFile.Measured(measured.delayMs(), measured.jdk()),
                new AnalysisFile.Peer(downstream.name(), downstream.peer(), downstream.port(), downstream.from()),
                new AnalysisFile.Coverage(Durations.round(a.seconds()), a.socketThreshold(), a.socketEvents(),
                        totalSamples), byGroup,
                new AnalysisFile.VirtualThreads(virtuals.started(), virtuals.ended(), virtuals.pinned(),
                        virtuals.pinnedAt(), virtuals.submitFailed(), Durations.round(a.carrierIdleShare())),
                new AnalysisFile.Pauses(a.gcPauseMs(), a.throttling()),
                new AnalysisFile.Waits(waitedAt.monitorEnterSites(), waitedAt.monitorWaitSites(),
                        waitedAt.parkSites()),
                new AnalysisFile.Load(a.cpu().toRecord(measured.cpuMsPerRequest()), signals.downstreamInFlight(),
                        signals.poolWaits(), a.databasePool()), signals.pinnedReasons(),
                new AnalysisFile.Judgement(verdicts.findings(), verdicts.unexpected(), verdicts.mistakes(),
                        measured.stalls()));
    }
}
