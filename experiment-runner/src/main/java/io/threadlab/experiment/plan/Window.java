package io.threadlab.experiment.plan;

import java.util.List;

/**
 * One measured stretch of load against one JVM of a variant, at one downstream delay. With
 * {@code detailedRecording} the window is recorded with the lab's JFR settings, for the thread analysis and the
 * recording's cost; without, it gives the headline.
 */
public record Window(Jvm jvm, int repetition, Load load, boolean detailedRecording, int delayMs) {

    /** A closed model (fixed users) or the open model's arrival-rate steps. */
    public sealed interface Load permits Closed, OpenSteps {
        String scenario();

        /** How long k6 runs, in seconds, settle phase included. */
        int seconds();
    }

    /** Fixed users; a settle phase at the same load comes first and is not measured. */
    public record Closed(int vus, int settleSeconds, int measureSeconds) implements Load {
        public String scenario() {
            return "closed-" + vus;
        }

        public int seconds() {
            return settleSeconds + measureSeconds;
        }
    }

    /**
     * The open model's arrival-rate steps: the given rates, or (with {@code shares}) shares of the highest closed-model
     * throughput the same JVM reached at the same delay, resolved when the steps start.
     */
    public record OpenSteps(List<Integer> rates, List<Double> shares, int stepSeconds) implements Load {
        public OpenSteps(List<Integer> rates, int stepSeconds) {
            this(rates, List.of(), stepSeconds);
        }

        public String scenario() {
            return "open";
        }

        public int seconds() {
            return Math.max(rates.size(), shares.size()) * stepSeconds;
        }
    }

    public Variant variant() {
        return jvm.variant();
    }

    /** The scenario as results.csv names it: closed-500, or closed-500-jfr for the recorded twin. */
    public String scenario() {
        return load.scenario() + (detailedRecording ? "-jfr" : "");
    }

    /** Name as used for files: variant[-setup]-delay-scenario-rep, e.g. {@code imperative-300ms-closed-3000-1}. */
    public String id() {
        return jvm.label() + "-" + delayMs + "ms-" + scenario() + "-" + repetition;
    }

    /** The closed model's users, or null for the open model. */
    public Integer users() {
        return load instanceof Closed closed ? closed.vus() : null;
    }

    /** Seconds of load before measuring starts. */
    public int settleSeconds() {
        return load instanceof Closed closed ? closed.settleSeconds() : 0;
    }
}
