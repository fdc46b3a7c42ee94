package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
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
     * One recording's numbers and verdicts, in groups that analysis.json writes flat, as it always did
     * ({@code @JsonUnwrapped}). {@code groups} is keyed by thread kind, lower case (worker, ...).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Recording(String file, String window, String variant, String label,
                            @JsonUnwrapped Measured measured, @JsonUnwrapped Peer peer,
                            @JsonUnwrapped Coverage coverage, Map<String, Group> groups,
                            @JsonUnwrapped VirtualThreads virtualThreads, @JsonUnwrapped Pauses pauses,
                            @JsonUnwrapped Waits waits, @JsonUnwrapped Load load,
                            Map<String, Integer> pinnedReasons, @JsonUnwrapped Judgement judgement) {

        public Recording {
            groups = groups == null ? Map.of() : groups;
            pinnedReasons = pinnedReasons == null ? Map.of() : pinnedReasons;
        }

        /** Every socket read is in the recording, the event loops' microsecond reads too. */
        public boolean everySocketEvent() {
            return SocketThreshold.everyEvent(coverage.socketThreshold());
        }

        /** The window waited on the database: its pool's waits are said beside its groups. */
        public boolean databaseWindow() {
            return "db".equals(peer.downstream()) && load.databasePool() != null;
        }
    }

    /**
     * What the runner measured of the recorded window: the downstream delay, null where unknown (and in format 1);
     * the Java version the recorded JVM ran, as its run recorded it, null where unknown.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Measured(Integer delayMs, String jdk) {
    }

    /**
     * What the window waited on ("http" or "db"), its peer, port and where the analysis learnt it; null in analyses
     * made before the database.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Peer(String downstream, String downstreamPeer, Integer downstreamPort, String downstreamFrom) {
    }

    /** How much the recording holds: its length, the socket events' threshold, and its execution samples. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Coverage(double seconds, String socketThreshold, String socketEvents, long executionSamples) {
    }

    /** What the virtual threads did beyond their group's numbers; pinnedAt by site. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record VirtualThreads(long virtualThreadsStarted, long virtualThreadsEnded,
                                 Durations.Summary virtualThreadsPinned, Map<String, Integer> pinnedAt,
                                 long virtualThreadSubmitFailed, Double carrierIdleShare) {
        public VirtualThreads {
            pinnedAt = pinnedAt == null ? Map.of() : pinnedAt;
        }
    }

    /** What stopped the whole JVM: the collector's pauses, and its container's CPU throttling. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Pauses(double gcPauseMs, RecordingAnalysis.Throttling cpuThrottling) {
    }

    /** Where threads waited: the top sites of monitor enters, monitor waits and parks. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Waits(List<WaitSites.Site> monitorEnterSites, List<WaitSites.Site> monitorWaitSites,
                        List<WaitSites.Site> parkSites) {
        public Waits {
            monitorEnterSites = monitorEnterSites == null ? List.of() : List.copyOf(monitorEnterSites);
            monitorWaitSites = monitorWaitSites == null ? List.of() : List.copyOf(monitorWaitSites);
            parkSites = parkSites == null ? List.of() : List.copyOf(parkSites);
        }
    }

    /**
     * The load the recording carried: the process's CPU by layer, and what held it at the downstream.
     * {@code downstreamReadsInFlight} and {@code connectionPoolWaits} are the delay service's (the REST client's pool),
     * whatever the window's downstream; {@code databasePool} the database's, null in analyses made before it.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Load(CpuByLayer cpuByLayer, InFlight.Summary downstreamReadsInFlight,
                       WaitSites.Site connectionPoolWaits, DatabasePool databasePool) {
    }

    /** What the analysis made of the numbers: its verdicts, what was unexpected, the mistakes, the stalls. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Judgement(List<String> verdicts, List<String> unexpected, List<Mistakes.Mistake> mistakes,
                            List<RecordedStall> stalls) {
        public Judgement {
            verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
            unexpected = unexpected == null ? List.of() : List.copyOf(unexpected);
            mistakes = mistakes == null ? List.of() : List.copyOf(mistakes);
            stalls = stalls == null ? List.of() : List.copyOf(stalls);
        }
    }

    /**
     * One thread group's numbers in one recording, in groups written flat. Socket reads "downstream" are from the
     * window's downstream (the delay service, or the database), "clients" from any port but the lab's two
     * downstreams; the reads from each downstream are there by name as well.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Group(int threads, int threadsReadingDownstream, @JsonUnwrapped Sockets sockets,
                        @JsonUnwrapped PoolWaits poolWaits, @JsonUnwrapped ThreadWaits waits,
                        @JsonUnwrapped Samples samples, @JsonUnwrapped NativeSamples natives, double meanCpu) {
    }

    /** A group's socket I/O: with the window's downstream, with its clients, and from each downstream by name. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Sockets(Durations.Summary socketReadsDownstream, Durations.Summary socketReadsClients,
                          Durations.Summary socketWritesDownstream, Durations.Summary socketWritesClients,
                          Durations.Summary socketReadsDelayService, Durations.Summary socketReadsDatabase) {
    }

    /** Parks and monitor enters inside a JDBC pool, and the threads that made them. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record PoolWaits(Durations.Summary databasePoolWaits, int threadsWaitingForPool) {
    }

    /** A group's other waits: parks (and on what), virtual threads' lifetimes, monitors. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ThreadWaits(Durations.Summary parks, Durations.Summary lifetimes, Map<String, Integer> parkedOn,
                              Durations.Summary monitorEnters, Durations.Summary monitorWaits) {
    }

    /** A group's execution samples: their share, by layer, in request code and its own CPU, under synchronized. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Samples(long executionSamples, double executionSampleShare, Map<String, Long> executionSamplesByLayer,
                          long requestCodeSamples, long labCodeSamples, Map<String, Integer> labCodeSites,
                          long synchronizedRequestCodeSamples) {
    }

    /** A group's native method samples, and those with request code below the native frame, by site. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record NativeSamples(long nativeSamples, long nativeSamplesInRequestCode, Map<String, Integer> nativeSites) {
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
