package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import io.threadlab.experiment.analyse.jmc.JmcRecording;

import java.util.List;
import java.util.Map;

/**
 * analysis.json: per recording, what the analysis found, written and read back by these types (the report reads
 * nothing by name). {@code lanes} maps a label to its lane picture, relative to the results directory; {@code jmc}
 * is what JDK Mission Control's own rules said of each recording (none in analyses made before they ran).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AnalysisFile(List<Recording> recordings, List<String> failures, Map<String, String> lanes,
                           List<JmcRecording> jmc) {

    public AnalysisFile {
        recordings = recordings == null ? List.of() : List.copyOf(recordings);
        failures = failures == null ? List.of() : List.copyOf(failures);
        lanes = lanes == null ? Map.of() : lanes;
        jmc = jmc == null ? List.of() : List.copyOf(jmc);
    }

    /** What JMC's rules said of the recording of {@code window}, where they ran on it. */
    public java.util.Optional<JmcRecording> jmc(String window) {
        return jmc.stream().filter(j -> window.equals(j.window())).findFirst();
    }

    /**
     * One recording's numbers and verdicts. {@code groups} is keyed by thread kind, lower case (worker, ...).
     * {@code delayMs} is the downstream delay the window was measured at, null where unknown (and in format 1);
     * {@code jdk} the Java version the recorded JVM ran, as its run recorded it, null where unknown.
     * {@code downstream} ("http" or "db"), its peer, port and where the analysis learnt it are null in analyses made
     * before the database; so is {@code databasePool}. {@code downstreamReadsInFlight} and
     * {@code connectionPoolWaits} are the delay service's (the REST client's pool), whatever the window's downstream.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Recording(String file, String window, String variant, String label, Integer delayMs, String jdk,
                            String downstream, String downstreamPeer, Integer downstreamPort, String downstreamFrom,
                            double seconds,
                            String socketThreshold, String socketEvents, long executionSamples,
                            Map<String, Group> groups, long virtualThreadsStarted, long virtualThreadsEnded,
                            Durations.Summary virtualThreadsPinned, Map<String, Integer> pinnedAt,
                            long virtualThreadSubmitFailed, Double carrierIdleShare, double gcPauseMs,
                            RecordingAnalysis.Throttling cpuThrottling, List<WaitSites.Site> monitorEnterSites,
                            List<WaitSites.Site> monitorWaitSites, List<WaitSites.Site> parkSites, CpuByLayer cpuByLayer,
                            InFlight.Summary downstreamReadsInFlight, WaitSites.Site connectionPoolWaits,
                            DatabasePool databasePool, Map<String, Integer> pinnedReasons, List<String> verdicts, List<String> unexpected,
                            List<Mistakes.Mistake> mistakes, List<RecordedStall> stalls) {

        public Recording {
            groups = groups == null ? Map.of() : groups;
            pinnedAt = pinnedAt == null ? Map.of() : pinnedAt;
            monitorEnterSites = monitorEnterSites == null ? List.of() : List.copyOf(monitorEnterSites);
            monitorWaitSites = monitorWaitSites == null ? List.of() : List.copyOf(monitorWaitSites);
            parkSites = parkSites == null ? List.of() : List.copyOf(parkSites);
            pinnedReasons = pinnedReasons == null ? Map.of() : pinnedReasons;
            verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
            unexpected = unexpected == null ? List.of() : List.copyOf(unexpected);
            mistakes = mistakes == null ? List.of() : List.copyOf(mistakes);
            stalls = stalls == null ? List.of() : List.copyOf(stalls);
        }

        /** Every socket read is in the recording, the event loops' microsecond reads too. */
        public boolean everySocketEvent() {
            return SocketThreshold.everyEvent(socketThreshold);
        }

        /** The window waited on the database: its pool's waits are said beside its groups. */
        public boolean databaseWindow() {
            return "db".equals(downstream) && databasePool != null;
        }
    }

    /**
     * One thread group's numbers in one recording. Socket reads "downstream" are from the window's downstream (the
     * delay service, or the database), "clients" from any port but the lab's two downstreams; the reads from each
     * downstream are there by name as well. {@code databasePoolWaits}: parks and monitor enters inside a JDBC pool.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Group(int threads, int threadsReadingDownstream, Durations.Summary socketReadsDownstream,
                        Durations.Summary socketReadsClients, Durations.Summary socketWritesDownstream,
                        Durations.Summary socketWritesClients, Durations.Summary socketReadsDelayService,
                        Durations.Summary socketReadsDatabase, Durations.Summary databasePoolWaits,
                        int threadsWaitingForPool, Durations.Summary parks, Durations.Summary lifetimes,
                        Map<String, Integer> parkedOn, Durations.Summary monitorEnters,
                        Durations.Summary monitorWaits, long executionSamples, double executionSampleShare,
                        Map<String, Long> executionSamplesByLayer, long requestCodeSamples, long labCodeSamples,
                        Map<String, Integer> labCodeSites, long synchronizedRequestCodeSamples, long nativeSamples,
                        long nativeSamplesInRequestCode, Map<String, Integer> nativeSites, double meanCpu) {
    }

    /** The process's CPU by layer: per layer its samples, their share, and CPU ms per request where known. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CpuByLayer(int processors, String processorsFrom, double javaThreadsCpuSeconds,
                             double jvmThreadsCpuSeconds, double processCpuSeconds, Double cpuMsPerRequest,
                             Map<String, LayerShare> layers) {
        public CpuByLayer {
            layers = layers == null ? Map.of() : layers;
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record LayerShare(long samples, double share, Double cpuMsPerRequest) {
    }
}
