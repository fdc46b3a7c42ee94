package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.report.landscape.Landscape;
import io.threadlab.experiment.report.landscape.Outcome;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The capacity model's checks, each able to fail: the predictions against the held-out points (the map's target),
 * the calibration's own points measured again (how closely the lab repeats itself, the floor under that target),
 * the extrapolations against the error they claimed, the saturation check called by its name (where the CPU binds,
 * the JVM used its quota: true by construction of a CPU-bound point, so it tests the measurement, not the model),
 * and Little's law at every point. The errors and the load generator's headroom are the run's checks, judged once.
 */
final class LandscapeChecks {

    /** A CPU-bound JVM uses its whole quota: within this share of it. */
    static final double SATURATED = 0.95;

    private LandscapeChecks() {
    }

    static List<Check> of(Landscape l, List<WindowResult> rows) {
        return List.of(heldOut(l.outcomes()), covered(l.outcomes()), named(l.outcomes()), repeated(l.outcomes(), rows),
                otherJvmStarts(l.outcomes()), extrapolated(l.outcomes()), saturation(l.outcomes()),
                little(l.outcomes()));
    }

    /**
     * The coverage of the stated intervals: of the held-out points measured soundly (one ceiling binding or not,
     * extrapolated or not: every interval stated is judged), the share whose measurement fell inside the interval
     * stated before it. An interval that covers less than it should warns less than it should.
     */
    static Check covered(List<Outcome> outcomes) {
        String name = "Held-out points inside the interval stated before them, at least " + pct(Forecast.COVERAGE_TARGET);
        List<Outcome> sound = outcomes.stream().filter(o -> o.heldOut() && o.measuredSoundly()).toList();
        List<Outcome> judged = sound.stream().filter(Outcome::bounded).toList();
        String unbounded = sound.size() == judged.size() ? "" : String.format(Locale.ROOT, "; %d more with an"
                + " interval reaching down to nothing not counted", sound.size() - judged.size());
        if (judged.isEmpty()) {
            return Check.notMeasured(name, sound.isEmpty()
                    ? "no held-out point measured without errors and with k6 in its headroom"
                    : "no held-out point whose interval bounds it from below" + unbounded);
        }
        List<String> outside = judged.stream().filter(o -> !o.covered()).map(o -> String.format(Locale.ROOT,
                "%s at %d ms, %,d users (%,.0f outside %,.0f–%,.0f)", o.jvm(), o.delayMs(), o.users(), o.measured(),
                o.prediction().orElseThrow().low(), o.prediction().orElseThrow().high())).toList();
        double share = 1 - (double) outside.size() / judged.size();
        return Check.of(name, share >= Forecast.COVERAGE_TARGET, String.format(Locale.ROOT, "%d of %d points (%s)%s",
                judged.size() - outside.size(), judged.size(), pct(share), (outside.isEmpty() ? ""
                        : "; OUTSIDE: " + String.join(", ", outside)) + unbounded));
    }

    /**
     * The binding ceiling named right: of the held-out points measured soundly whose binding the measurement names
     * ({@link Outcome#measuredBinding}), the share the prediction named the same.
     */
    static Check named(List<Outcome> outcomes) {
        String name = "Binding ceiling named right at held-out points, at least " + pct(Forecast.NAMED_TARGET);
        List<Outcome> judged = outcomes.stream().filter(o -> o.heldOut() && o.measuredSoundly()
                && o.measuredBinding().isPresent()).toList();
        if (judged.isEmpty()) {
            return Check.notMeasured(name, "no held-out point whose binding the measurement names");
        }
        List<String> wrong = judged.stream().filter(o -> !o.measuredBinding().equals(o.binding()))
                .map(o -> String.format(Locale.ROOT, "%s at %d ms, %,d users (predicted %s, measured %s)", o.jvm(),
                        o.delayMs(), o.users(), o.binding().map(Ceiling::label).orElse("?"),
                        o.measuredBinding().map(Ceiling::label).orElse("?"))).toList();
        double share = 1 - (double) wrong.size() / judged.size();
        return Check.of(name, share >= Forecast.NAMED_TARGET, String.format(Locale.ROOT, "%d of %d points (%s)%s",
                judged.size() - wrong.size(), judged.size(), pct(share), wrong.isEmpty() ? ""
                        : "; WRONG: " + String.join(", ", wrong)));
    }

    /**
     * A calibrated point measured again later, as a held-out point would be: its throughput within the target of its
     * calibration window's. No model stands between the two, so this is how closely the lab repeats itself at one
     * point, the floor under what the held-out check can ask of the model. Judged as the held-out points are: measured
     * soundly ({@link Outcome#measuredSoundly}).
     */
    static Check repeated(List<Outcome> outcomes, List<WindowResult> rows) {
        String name = "Repeatability: a calibrated point measured again later within " + pct(Forecast.TOLERANCE)
                + " of its calibration window";
        List<String> pairs = new ArrayList<>();
        int within = 0;
        double worst = 0;
        for (Outcome again : outcomes) {
            if (!again.calibrated() || !again.measuredSoundly()) {
                continue;
            }
            Optional<WindowResult> first = rows.stream().filter(r -> r.calibration() && r.users() != null
                    && r.jvmId().equals(again.jvmId()) && r.at().equals(again.at())).findFirst();
            if (first.isEmpty() || first.get().load().errors() > 0) {
                continue;
            }
            double ratio = again.measured() / first.get().load().requestsPerSecond();
            worst = Math.max(worst, Math.abs(ratio - 1));
            within += Math.abs(ratio - 1) <= Forecast.TOLERANCE ? 1 : 0;
            pairs.add(String.format(Locale.ROOT, "%s at %d ms, %,d users: %,.0f then %,.0f (%+.0f %%)", again.jvm(),
                    again.delayMs(), again.users(), first.get().load().requestsPerSecond(), again.measured(),
                    (ratio - 1) * 100));
        }
        if (pairs.isEmpty()) {
            return Check.notMeasured(name, "no calibrated point was measured again without errors and with k6 in"
                    + " its headroom");
        }
        return Check.of(name, within == pairs.size(), String.format(Locale.ROOT, "%d of %d points (worst %s): %s",
                within, pairs.size(), pct(worst), String.join("; ", pairs)));
    }

    /**
     * Held-out points where one ceiling binds, within the calibrated users, predicted from their own JVM's
     * calibration: measured within 15 % of predicted. The model's test.
     */
    static Check heldOut(List<Outcome> outcomes) {
        String name = "Held-out throughput within " + pct(Forecast.TOLERANCE) + " of the prediction made before it,"
                + " wherever one ceiling binds";
        return within(name, judged(outcomes).stream().filter(Outcome::ownCalibration)
                .filter(o -> !o.prediction().orElseThrow().extrapolated()).toList(), outcomes);
    }

    /**
     * The same, for later JVM starts predicted from the first one's calibration: the model's error and the JVM
     * start's own variance together, as a prediction for another deployment meets them.
     */
    static Check otherJvmStarts(List<Outcome> outcomes) {
        String name = "Held-out throughput of later JVM starts within " + pct(Forecast.TOLERANCE)
                + " of the prediction from the first one's calibration";
        return within(name, judged(outcomes).stream().filter(o -> !o.ownCalibration())
                .filter(o -> !o.prediction().orElseThrow().extrapolated()).toList(), outcomes);
    }

    private static Check within(String name, List<Outcome> judged, List<Outcome> outcomes) {
        if (judged.isEmpty()) {
            return Check.notMeasured(name, outcomes.stream().anyMatch(o -> o.prediction().isPresent())
                    ? "no held-out point where one ceiling binds, within the calibrated users, without errors and"
                    + " with k6 in its headroom"
                    : "nothing was predicted (no calibration)");
        }
        List<String> off = judged.stream().filter(o -> !o.withinTolerance()).map(LandscapeChecks::name).toList();
        double[] errors = judged.stream().mapToDouble(Outcome::error).sorted().toArray();
        return Check.of(name, off.isEmpty(), String.format(Locale.ROOT, "%d of %d points (median error %s, worst %s)"
                        + "%s", judged.size() - off.size(), judged.size(), pct(Stats.median(errors)),
                pct(errors[errors.length - 1]), off.isEmpty() ? "" : "; OFF: " + String.join(", ", off)));
    }

    /** Beyond the calibrated users, each prediction within the wider error it claimed. */
    static Check extrapolated(List<Outcome> outcomes) {
        String name = "Extrapolations within the error they claimed";
        List<Outcome> judged = judged(outcomes).stream().filter(o -> o.prediction().orElseThrow().extrapolated()
                && o.bounded()).toList();
        if (judged.isEmpty()) {
            return Check.notMeasured(name, "no held-out point lay beyond the calibrated users");
        }
        List<String> off = judged.stream().filter(o -> !o.covered())
                .map(o -> name(o) + " (claimed " + o.prediction().orElseThrow().spread() + ")").toList();
        return Check.of(name, off.isEmpty(), (judged.size() - off.size()) + " of " + judged.size() + " points"
                + (off.isEmpty() ? "" : "; OFF: " + String.join(", ", off)));
    }

    /** Where the CPU was predicted to bind, the JVM used its quota: the saturation check, not a prediction. */
    static Check saturation(List<Outcome> outcomes) {
        String name = "Saturation check: where the CPU binds, the JVM used at least " + pct(SATURATED)
                + " of its quota";
        List<Outcome> cpuBound = outcomes.stream().filter(o -> o.binding().orElse(null) == Ceiling.CPU
                && o.oneCeilingBinds()).toList();
        if (cpuBound.isEmpty()) {
            return Check.notMeasured(name, "no point where the CPU was predicted to bind");
        }
        List<String> idle = cpuBound.stream().filter(o -> o.readings().saturation() < SATURATED).map(o -> String.format(
                Locale.ROOT, "%s at %d ms, %,d users (%.0f %% of its quota)", o.jvm(), o.delayMs(), o.users(),
                o.readings().saturation() * 100)).toList();
        return Check.of(name, idle.isEmpty(), (cpuBound.size() - idle.size()) + " of " + cpuBound.size()
                + " points" + (idle.isEmpty() ? "" : "; BELOW: " + String.join(", ", idle)
                + ": something other than the CPU bound them"));
    }

    static Check little(List<Outcome> outcomes) {
        String name = "Little's law held at every point (users = throughput × mean response time, within "
                + pct(Outcome.LITTLE_TOLERANCE) + ")";
        List<Outcome> known = outcomes.stream().filter(o -> o.littleHolds() != null).toList();
        if (known.isEmpty()) {
            return Check.notMeasured(name, "no point recorded its mean response time");
        }
        // Why, point by point, from what the window recorded: its users' requests still in flight at its end
        List<String> off = known.stream().filter(o -> !o.littleHolds()).map(o -> String.format(Locale.ROOT,
                "%s at %d ms, %,d users (%,.0f busy: %s)", o.jvm(), o.delayMs(), o.users(), o.readings().littleUsers(),
                o.heldUnanswered() ? String.format(Locale.ROOT, "%,d in flight at its end, unanswered, which the"
                        + " mean response time of the answered does not count: the service held its users' requests",
                        o.readings().inFlight()) : "the load generator did not keep its users busy")).toList();
        return Check.of(name, off.isEmpty(), off.isEmpty() ? known.size() + " points"
                : "FAILED at " + String.join(", ", off));
    }

    /** The points a prediction is judged on ({@link Outcome#judged()}). */
    private static List<Outcome> judged(List<Outcome> outcomes) {
        return outcomes.stream().filter(Outcome::judged).toList();
    }

    private static String name(Outcome o) {
        return String.format(Locale.ROOT, "%s at %d ms, %,d users (measured %,.0f, predicted %,.0f by %s)", o.jvm(),
                o.delayMs(), o.users(), o.measured(), o.predicted(), o.binding().map(Ceiling::label).orElse("?"));
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f %%", share * 100);
    }
}
