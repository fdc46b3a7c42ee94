package io.threadlab.experiment.plan;

import java.util.List;

/**
 * One measured stretch of load against one JVM of a variant. With {@code detailedRecording} the window is recorded
 * with the lab's JFR settings, for the thread analysis and the recording's cost; without, it gives the headline.
 */
public record Window(Jvm jvm, int repetition, Load load, boolean detailedRecording) {

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

    public record OpenSteps(List<Integer> rates, int stepSeconds) implements Load {
        public String scenario() {
            return "open";
        }

        public int seconds() {
            return rates.size() * stepSeconds;
        }
    }

    public Variant variant() {
        return jvm.variant();
    }

    /** The scenario as results.csv names it: closed-500, or closed-500-jfr for the recorded twin. */
    public String scenario() {
        return load.scenario() + (detailedRecording ? "-jfr" : "");
    }

    /** Name as used for files: variant-scenario-rep. */
    public String id() {
        return variant().label() + "-" + scenario() + "-" + repetition;
    }

    /** Seconds of load before measuring starts. */
    public int settleSeconds() {
        return load instanceof Closed closed ? closed.settleSeconds() : 0;
    }
}
