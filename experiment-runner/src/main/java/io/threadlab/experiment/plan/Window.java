package io.threadlab.experiment.plan;

import java.util.List;

/**
 * One measured stretch of load against one JVM, at one point of the window axes (the delay; the users, for the closed
 * model). With {@code recorded} the window is recorded with the lab's JFR settings, for the thread analysis and the
 * recording's cost; without, it gives the headline. A calibration window measures what the capacity model of its JVM
 * needs, before any of that JVM's predictions is made.
 *
 * @param at     the window axes; the closed model's users among them, the open model without
 * @param number the repetition; for a calibration window, the JVM start
 */
public record Window(Jvm jvm, Point at, Load load, boolean recorded, WindowId.Role role, int number) {

    public Window {
        if (!at.only(Axis.Scope.JVM).isEmpty()) {
            throw new IllegalArgumentException("a window's point has window axes only (the JVM has the rest), was "
                    + at);
        }
        if (load instanceof Closed != at.has(Axis.USERS)) {
            throw new IllegalArgumentException("the closed model has users, the open model and the burst none: " + at);
        }
        if (load instanceof Burst burst ? !at.has(Axis.REQUESTS) || burst.requests() != at.get(Axis.REQUESTS)
                : at.has(Axis.REQUESTS)) {
            throw new IllegalArgumentException("a burst's point has its requests, no other window's: " + at + ", "
                    + load);
        }
    }

    /** A plain or recorded window of a repetition. */
    public Window(Jvm jvm, Point at, Load load, boolean recorded, int repetition) {
        this(jvm, at, load, recorded, WindowId.Role.MEASURED, repetition);
    }

    /** A closed model (fixed users), the open model's arrival-rate steps, or a burst. */
    public sealed interface Load permits Closed, OpenSteps, Burst {
        /** How long k6 runs, in seconds, settle phase included. */
        int seconds();

        /** The longest it may run: the settle's ceiling, the window, the open model's stragglers. */
        int ceilingSeconds();
    }

    /**
     * Fixed users (the point's); a settle phase at the same load comes first and is not measured: at least
     * {@code settleSeconds}, at most {@code settleMaxSeconds}, until the compiler is quiet and every user was answered.
     */
    public record Closed(int settleSeconds, int settleMaxSeconds, int measureSeconds) implements Load {
        public Closed(Timing timing) {
            this(timing.settleSeconds(), timing.settleMaxSeconds(), timing.windowSeconds());
        }

        public int seconds() {
            return settleSeconds + measureSeconds;
        }

        public int ceilingSeconds() {
            return settleMaxSeconds + measureSeconds;
        }
    }

    /**
     * The open model's arrival-rate steps: the given rates, or (with {@code shares}) shares of the highest closed-model
     * throughput the same JVM reached at the same delay, resolved when the steps start. A settle at the plan's highest
     * level comes first, for at most {@code settleMaxSeconds}.
     */
    public record OpenSteps(List<Integer> rates, List<Double> shares, int stepSeconds, int settleMaxSeconds)
            implements Load {

        public int seconds() {
            return Math.max(rates.size(), shares.size()) * stepSeconds;
        }

        /** A settle at the highest level first; k6 may take minutes to make thousands of users, then 60 s to end. */
        public int ceilingSeconds() {
            return settleMaxSeconds + seconds() + OPEN_MODEL_STARTUP_SECONDS + OPEN_MODEL_STRAGGLERS_SECONDS;
        }
    }

    /** How long the open model waits for its first answer: k6 makes all its users first (thousands: > 10 s). */
    public static final int OPEN_MODEL_STARTUP_SECONDS = 120;
    /**
     * How long k6 may go on after the open model's last step (its graceful stop is 5 s) before it is waited for, and
     * then stopped: a k6 that hangs there (seen once at 1 s × 3,235 req/s, alive 8 minutes later, the machine out of
     * memory) costs a point, not the run.
     */
    public static final int OPEN_MODEL_STRAGGLERS_SECONDS = 60;

    public Variant variant() {
        return jvm.variant();
    }

    /** Its name: files, rows and recordings are named by it. */
    public WindowId id() {
        return new WindowId(variant().label(), jvm.setup().and(at), recorded, role, number);
    }

    /** Whether the window is a burst ({@link Burst}). */
    public boolean burst() {
        return load instanceof Burst;
    }

    /** The closed model's users, or null for the open model and the burst. */
    public Integer users() {
        return at.get(Axis.USERS);
    }

    public int delayMs() {
        return at.get(Axis.DELAY_MS);
    }

    /** What the requests wait on: the delay service unless the point says the database. */
    public Downstream downstream() {
        return at.has(Axis.DOWNSTREAM) ? at.get(Axis.DOWNSTREAM) : Downstream.HTTP;
    }

    /** What k6 calls: the downstream's path, or the fan-out's with its query ({@link Variant#path(Point)}). */
    public String path() {
        return variant().path(at);
    }

    /** The calls to the delay service each request makes: 1 unless the point fans out. */
    public int fanOut() {
        return at.getOrFallback(Axis.FAN_OUT);
    }

    public boolean calibration() {
        return role == WindowId.Role.CALIBRATION;
    }

    /** Seconds of load before measuring starts. */
    public int settleSeconds() {
        return load instanceof Closed closed ? closed.settleSeconds() : 0;
    }
}
