package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
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
 * {@code chainSamples} how many show it. {@code fewSamplesChain}: where the samples are too few to name a chain
 * ({@link StallChains#MIN_SAMPLES}) but most of them show one, that chain, with {@code chainSamples} counting them (a
 * stall the recycler's spin makes starves JFR's sampler too); null otherwise, and not written.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RecordedStall(int firstSecond, int seconds, double meanRate, double steadyRate, String from, String to,
                            long samples, Map<String, Long> samplesByGroup, List<Frame> topFrames, String chain,
                            long chainSamples, @JsonInclude(JsonInclude.Include.NON_NULL) String fewSamplesChain) {

    public RecordedStall {
        samplesByGroup = samplesByGroup == null ? Map.of() : samplesByGroup;
        topFrames = topFrames == null ? List.of() : List.copyOf(topFrames);
    }

    /**
     * What its samples say: the chain they show; where they are too few to name it, the chain most of them show and
     * the top frames; else the top frames.
     */
    public String why() {
        if (chain != null) {
            return chain;
        }
        if (samples == 0) {
            return "no known chain: no execution sample in those seconds";
        }
        String frames = "top frames " + String.join("; ", topFrames.stream().limit(3).map(t -> String.format(
                Locale.ROOT, "%s%s (%s, %,d)", t.leaf(), t.leaf().equals(t.site()) ? "" : " from " + t.site(),
                t.groupLabel(), t.samples())).toList());
        return fewSamplesChain == null ? "no known chain: " + frames : String.format(Locale.ROOT, "too few to name a"
                + " chain (at least %d), %,d of them in %s; %s", StallChains.MIN_SAMPLES, chainSamples,
                fewSamplesChain, frames);
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
