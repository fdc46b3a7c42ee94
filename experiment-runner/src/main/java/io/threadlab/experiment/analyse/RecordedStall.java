package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A stall in the recorded window's throughput (results.json's per_second: seconds below a quarter of the window's
 * steady rate, {@link Stalls}), with the execution samples of its seconds, as analysis.json has it. {@code firstSecond}
 * counts from the start of the measured interval, {@code from} and {@code to} are those seconds' instants;
 * {@code chain} is the known chain the samples show ({@link KnownChains}), null when they show none, and
 * {@code chainSamples} how many show it.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RecordedStall(int firstSecond, int seconds, double meanRate, double steadyRate, String from, String to,
                            long samples, Map<String, Long> samplesByGroup, List<Frame> topFrames, String chain,
                            long chainSamples) {

    public RecordedStall {
        samplesByGroup = samplesByGroup == null ? Map.of() : samplesByGroup;
        topFrames = topFrames == null ? List.of() : List.copyOf(topFrames);
    }

    /** Where a stall's samples were: the thread group, the leaf frame and the first frame outside the JDK. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Frame(String group, String leaf, String site, long samples) {

        /** "worker pool": the group as the lesson names it. */
        public String groupLabel() {
            return ThreadKind.valueOf(group.toUpperCase(Locale.ROOT)).label();
        }
    }
}
