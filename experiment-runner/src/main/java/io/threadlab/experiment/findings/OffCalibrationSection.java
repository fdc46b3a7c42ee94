package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.predict.CalibratedRun;
import io.threadlab.experiment.predict.CannotPredict;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.report.HeldOutAgainst;
import io.threadlab.experiment.report.landscape.Outcome;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Forecasts away from the calibrated point: each published run that measured without calibrating (at other delays
 * and users), every closed-model window of it predicted from the calibration of the latest default run published
 * before it on the same Quarkus platform, as {@code ./experiment predict --from <default> --against <run>} prints it.
 * The measured numbers come from the run's results.csv, the predictions from the default run's calibration windows.
 */
final class OffCalibrationSection {

    record Row(String variant, String at, String measured, String predicted, String error,
               String interval, String inside, String binds, String asMeasured) {
    }

    /** @param from the default run whose calibration predicted, linked; {@code within}, "5 of 6" linked */
    record Run(String run, String from, String command, List<Row> rows, String within, String covered,
               String named) {
    }

    private OffCalibrationSection() {
    }

    static List<Run> of(List<PublishedRun> runs) {
        return runs.stream().filter(OffCalibrationSection::heldOutOnly)
                .flatMap(run -> calibratedBefore(run, runs).map(from -> of(run, from)).stream()).toList();
    }

    /** A run of closed-model windows that calibrated nothing itself: every window of it is held out of its own. */
    private static boolean heldOutOnly(PublishedRun run) {
        return run.kind() == Kind.OTHER_RUN && !run.facts().windows().isEmpty()
                && run.facts().windows().stream().noneMatch(w -> w.calibration())
                && run.facts().windows().stream().anyMatch(w -> w.users() != null);
    }

    private static Optional<PublishedRun> calibratedBefore(PublishedRun run, List<PublishedRun> runs) {
        String started = String.valueOf(run.facts().manifest().startedAt());
        return runs.stream().filter(r -> r.kind() == Kind.DEFAULT_RUN && r.platform().equals(run.platform()))
                .filter(r -> String.valueOf(r.facts().manifest().startedAt()).compareTo(started) < 0)
                .max(Comparator.comparing(r -> String.valueOf(r.facts().manifest().startedAt())));
    }

    private static Run of(PublishedRun run, PublishedRun from) {
        HeldOutAgainst held;
        try {
            held = HeldOutAgainst.of(CalibratedRun.read(from.facts().dir()), RunRecord.read(run.facts().dir()));
        } catch (CannotPredict | IOException e) {
            throw new UncheckedIOException("findings: " + run.name() + " predicted from " + from.name() + ": "
                    + e.getMessage(), e instanceof IOException io ? io : new IOException(e));
        }
        String measured = run.results();
        String calibration = from.results();
        List<Row> rows = held.outcomes().stream().map(o -> new Row(o.variant(), o.delayMs() + " ms, "
                + Cite.format(o.users(), 0) + " users", Cite.number(o.measured(), 0, measured),
                Cite.number(o.predicted(), 0, calibration), Cite.link(String.format(java.util.Locale.ROOT, "%+.0f %%",
                        (o.ratio() - 1) * 100), measured),
                Cite.number(o.prediction().orElseThrow().low(), 0, calibration) + "–"
                        + Cite.number(o.prediction().orElseThrow().high(), 0, calibration),
                o.covered() ? "yes" : "no", o.binding().map(Ceiling::label).orElse("–"),
                o.measuredSoundly() ? o.measuredBinding().map(Ceiling::label).orElse("–") : "not judged")).toList();
        List<Outcome> judged = held.outcomes().stream().filter(Outcome::judged).toList();
        return new Run(Cite.link(run.name(), run.report()), Cite.link(from.name(), from.report()),
                "./experiment predict --from findings/" + from.name() + " --against findings/" + run.name(), rows,
                judged.isEmpty() ? "none judged" : count(judged.stream().filter(Outcome::withinTolerance).count(),
                        judged.size(), measured),
                Forecasts.covered(held.outcomes()).cited(measured), Forecasts.named(held.outcomes()).cited(measured));
    }

    private static String count(long within, int of, String file) {
        return Cite.link(String.valueOf(within), file) + " of " + Cite.link(String.valueOf(of), file);
    }
}
