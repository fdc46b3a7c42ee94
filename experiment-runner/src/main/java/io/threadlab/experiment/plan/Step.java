package io.threadlab.experiment.plan;

import java.util.List;

/** One step of a run's schedule. The schedule is data: the manifest records it and the report can show it. */
public sealed interface Step {

    /** Kind, for the manifest and the clock's per-kind correction. */
    String kind();

    /** What the console says when the step begins. */
    String describe();

    /** The plan's guess of its length, before anything was measured. */
    int estimatedSeconds();

    /**
     * The longest it may take, from the plan's own ceilings (warm-up, settle, window, drain, readiness) and a margin:
     * past it the step ends as a named failure of its own, never as silence.
     */
    int ceilingSeconds();

    /** Seconds any step may spend beyond its own ceilings: a drain of the load before it, scrapes, k6's start. */
    int MARGIN_SECONDS = 120;
    /** A service must answer its readiness check within this after its start. */
    int READY_SECONDS = 180;

    /** Every JVM of the run, each in its CPU group from its first instruction, started side by side. */
    record StartJvms(List<Jvm> jvms) implements Step {
        public String kind() {
            return "start";
        }

        public String describe() {
            return "Starting " + jvms.size() + " JVMs";
        }

        public int estimatedSeconds() {
            return 10 + 4 * jvms.size();
        }

        public int ceilingSeconds() {
            return READY_SECONDS + 10 * jvms.size() + MARGIN_SECONDS;
        }
    }

    /** Stop JVMs whose windows are done (containers, whose services run one JVM at a time). */
    record StopJvms(List<Jvm> jvms) implements Step {
        public String kind() {
            return "stop";
        }

        public String describe() {
            return "Stopping " + jvms.size() + " JVMs";
        }

        public int estimatedSeconds() {
            return 5;
        }

        public int ceilingSeconds() {
            return 90 * jvms.size() + MARGIN_SECONDS; // each one's load drained, its compiler recording kept
        }
    }

    /**
     * Bring one JVM to its peak and prove its compiler finished at every level given, loading it where it is first
     * measured ({@code at}: the downstream and its wait).
     */
    record WarmUp(Jvm jvm, List<Integer> levels, WarmUpPolicy policy, Point at) implements Step {

        public WarmUp(Jvm jvm, List<Integer> levels, WarmUpPolicy policy) {
            this(jvm, levels, policy, Point.NONE);
        }

        /** The downstream the warm-up loads: the delay service unless {@code at} says the database. */
        public Downstream downstream() {
            return at.has(Axis.DOWNSTREAM) ? at.get(Axis.DOWNSTREAM) : Downstream.HTTP;
        }

        /**
         * What the warm-up calls: one call to its downstream; a mistake that only fans out, its first window's
         * request (the calls per request and mode of {@code at}).
         */
        public String path() {
            String oneCall = jvm.variant().path(at.without(Axis.FAN_OUT).without(Axis.FAN_OUT_MODE));
            return oneCall != null ? oneCall : jvm.variant().path(at);
        }

        /**
         * The delay service's calls per request of {@link #path()}, by which its count of calls is read as requests
         * (as a window's is); 0 where the database answers.
         */
        public int delayCallsPerRequest() {
            if (downstream() != Downstream.HTTP) {
                return 0;
            }
            return jvm.variant().path(Downstream.HTTP) != null || !at.has(Axis.FAN_OUT) ? 1 : at.get(Axis.FAN_OUT);
        }

        public String kind() {
            return "warm-up";
        }

        public String describe() {
            return "Warming up " + jvm;
        }

        public int estimatedSeconds() {
            // measured at 0.5 CPU: 20-45 s of boost, then about a window per level
            return policy.preBoostSeconds() + (policy.boostMaxSeconds() > 0 ? 35 : 0)
                    + levels.size() * (policy.levelMinSeconds() + 4);
        }

        /** Boosting, each level may be held twice: once more after a second boost, within the boost's ceiling. */
        public int ceilingSeconds() {
            return policy.preBoostSeconds() + policy.boostMaxSeconds() + levels.size() * policy.levelMaxSeconds()
                    * (policy.boostMaxSeconds() > 0 ? 2 : 1) + MARGIN_SECONDS;
        }
    }

    record Measure(Window window) implements Step {
        public String kind() {
            return window.calibration() ? "calibration" : window.burst() ? "burst" : window.recorded() ? "recorded window"
                    : window.users() == null ? "open model" : "window";
        }

        public String describe() {
            return window.id() + " on " + window.jvm();
        }

        public int estimatedSeconds() {
            return window.load().seconds() + 3; // k6 start, scrapes
        }

        public int ceilingSeconds() {
            return (window.calibration() ? Calibration.TRIES : 1) * window.load().ceilingSeconds() + MARGIN_SECONDS
                    + (window.users() == null ? 0 : window.users() / 100); // k6 makes its users one after another
        }
    }

    /**
     * A fresh JVM under continuous load at the quota from its start, followed until its compiler has finished: how
     * long a variant takes to reach its peak in a small container. Started, followed and stopped in this step.
     */
    record TimeToPeak(Jvm jvm, int users, WarmUpPolicy policy) implements Step {
        public String kind() {
            return "time to peak";
        }

        public String describe() {
            return "Time to peak of " + jvm.variant() + " at the quota, " + users + " users";
        }

        public int estimatedSeconds() {
            return 15 + Math.min(policy.levelMaxSeconds(), 240);
        }

        public int ceilingSeconds() {
            return READY_SECONDS + policy.levelMaxSeconds() + MARGIN_SECONDS;
        }
    }
}
