package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.predict.BetaEvidence;
import io.threadlab.experiment.predict.CalibratedRun;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.report.HeldOutAgainst;
import io.threadlab.experiment.report.landscape.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The published run that calibrated nothing, predicted from the default run published before it on its platform:
 * the rows and counts are predict --against's, and a run on another platform, or with no default before it, is not
 * predicted at all. A run of its own plan that calibrated itself is predicted from itself, where it did not calibrate.
 */
class OffCalibrationSectionTest {

    private static final Path FINDINGS = Path.of("..", "findings").toAbsolutePath().normalize();
    private static final String DEFAULT = "default-2";
    private static final String HELD_OUT = "heldout-2";
    private static final String SELF_CALIBRATED = "same-points-1";
    private static final String QUOTAS = "quota-side-by-side";

    @TempDir
    Path findings;

    private void publish(String name, String quarkus) throws IOException {
        Path dir = Files.createDirectories(findings.resolve(name));
        for (String file : List.of("manifest.json", "results.json", "analysis.json")) {
            Path from = FINDINGS.resolve(name).resolve(file);
            if (Files.exists(from)) {
                String text = Files.readString(from);
                Files.writeString(dir.resolve(file), file.equals("manifest.json") && quarkus != null
                        ? text.replaceFirst("\"quarkus_version\" : \"[^\"]*\"", "\"quarkus_version\" : \"" + quarkus
                        + "\"") : text);
            }
        }
    }

    @Test
    void everyClosedWindowOfTheHeldOutRunIsPredictedFromTheDefaultRunsCalibration() throws Exception {
        publish(DEFAULT, null);
        publish(HELD_OUT, null);

        OffCalibrationSection.Section section = OffCalibrationSection.of(PublishedRun.readAll(findings));
        List<OffCalibrationSection.Run> runs = section.runs();

        HeldOutAgainst expected = HeldOutAgainst.of(CalibratedRun.read(findings.resolve(DEFAULT)),
                RunRecord.read(findings.resolve(HELD_OUT)));
        assertThat(runs).singleElement().satisfies(run -> {
            assertThat(run.run()).contains(HELD_OUT);
            assertThat(run.from()).contains(DEFAULT);
            assertThat(run.rows()).hasSize(expected.outcomes().size()).isNotEmpty();
            assertThat(run.rows()).extracting(OffCalibrationSection.Row::variant)
                    .containsExactlyElementsOf(expected.outcomes().stream().map(Outcome::variant).toList());
            List<Outcome> judged = expected.outcomes().stream().filter(Outcome::judged).toList();
            assertThat(strip(run.within())).isEqualTo(judged.isEmpty() ? "none judged"
                    : judged.stream().filter(Outcome::withinTolerance).count() + " of " + judged.size());
        });
        // one run of the delay service's: together, its own counts, with the share
        long within = expected.outcomes().stream().filter(Outcome::judged).filter(Outcome::withinTolerance).count();
        long judged = expected.outcomes().stream().filter(Outcome::judged).count();
        assertThat(section.totals()).singleElement().satisfies(total -> {
            assertThat(total.work()).isEqualTo("the delay service");
            assertThat(strip(total.runs())).isEqualTo("1");
            assertThat(strip(total.within())).isEqualTo(within + " of " + judged + " ("
                    + Math.round(100.0 * within / judged) + " %)");
            assertThat(strip(total.covered())).startsWith(strip(runs.getFirst().covered()) + " (");
            assertThat(strip(total.named())).startsWith(strip(runs.getFirst().named()) + " (");
            // the binding named where one ceiling binds clearly and where two lie nearly together, apart
            List<Outcome> named = expected.outcomes().stream().filter(o -> o.heldOut() && o.measuredSoundly()
                    && o.measuredBinding().isPresent()).toList();
            assertThat(named).as("the fixture names the binding of some").anyMatch(Outcome::oneCeilingBinds);
            assertThat(strip(total.namedClear())).isEqualTo(namedShare(named.stream()
                    .filter(Outcome::oneCeilingBinds).toList()));
            assertThat(strip(total.namedClose())).isEqualTo(namedShare(named.stream()
                    .filter(o -> !o.oneCeilingBinds()).toList()));
        });
    }

    @Test
    void aRunOnAnotherPlatformIsNotPredictedFromThisDefault() throws IOException {
        publish(DEFAULT, "3.27.2-elsewhere");
        publish(HELD_OUT, null);
        assertThat(OffCalibrationSection.of(PublishedRun.readAll(findings))).isNull();
    }

    /** On another processor a request costs another CPU: the run is not predicted from a default run on this one. */
    @Test
    void aRunOnAnotherProcessorIsNotPredictedFromThisDefault() throws IOException {
        publish(DEFAULT, null);
        publish(HELD_OUT, null);
        Path manifest = findings.resolve(HELD_OUT).resolve("manifest.json");
        String text = Files.readString(manifest);
        assertThat(text).contains("\"cpu_model\" : \"AMD EPYC\"");
        Files.writeString(manifest, text.replace("\"cpu_model\" : \"AMD EPYC\"",
                "\"cpu_model\" : \"Intel(R) Xeon(R) Processor\""));
        assertThat(OffCalibrationSection.of(PublishedRun.readAll(findings))).isNull();
    }

    @Test
    void theDefaultRunItselfIsNotHeldOut() throws IOException {
        publish(DEFAULT, null);
        assertThat(OffCalibrationSection.of(PublishedRun.readAll(findings))).isNull();
    }

    /**
     * A run of its own plan that calibrated itself (same-points-1: reactive and virtual threads calibrated at 10 and 50
     * ms, then measured at 700, 900 and 1,000 users): its windows at points it did not calibrate are predicted from its
     * own calibration, as {@code predict --from} it {@code --against} it says; its four windows at points it
     * calibrated (10 ms × 700 users, 50 ms × 900) are not held out.
     */
    @Test
    void aRunThatCalibratedItselfIsHeldOutOnlyWhereItDidNotCalibrate() throws Exception {
        publish(SELF_CALIBRATED, null);

        OffCalibrationSection.Section section = OffCalibrationSection.of(PublishedRun.readAll(findings));

        HeldOutAgainst all = HeldOutAgainst.of(CalibratedRun.read(findings.resolve(SELF_CALIBRATED)),
                RunRecord.read(findings.resolve(SELF_CALIBRATED)));
        assertThat(all.outcomes()).hasSize(12);
        assertThat(section.runs()).singleElement().satisfies(run -> {
            assertThat(run.run()).contains(SELF_CALIBRATED);
            assertThat(run.from()).contains(SELF_CALIBRATED);
            assertThat(run.rows()).hasSize(8).extracting(OffCalibrationSection.Row::at)
                    .doesNotContain("10 ms, 700 users", "50 ms, 900 users")
                    .contains("10 ms, 900 users", "10 ms, 1,000 users", "50 ms, 700 users", "50 ms, 1,000 users");
        });
    }

    /**
     * A map of a few points that calibrated itself (quota-side-by-side: reactive and virtual threads, each at 0.25 and
     * 0.5 CPU, each JVM calibrated at its quota) is held out as such a run is: all its measured windows predicted from
     * the run's own quota's JVMs, those at 0.5 across quotas; and the section sets its two quotas' costs side by side.
     */
    @Test
    void aMapOfAFewPointsThatCalibratedItselfIsHeldOutAndItsQuotasSetSideBySide() throws Exception {
        publish(QUOTAS, null);
        List<PublishedRun> runs = PublishedRun.readAll(findings);
        assertThat(runs.getFirst().kind()).isEqualTo(Kind.POINTS);

        OffCalibrationSection.Section section = OffCalibrationSection.of(runs);

        HeldOutAgainst all = HeldOutAgainst.of(CalibratedRun.read(findings.resolve(QUOTAS)),
                RunRecord.read(findings.resolve(QUOTAS)));
        assertThat(section.runs()).singleElement().satisfies(run -> {
            assertThat(run.from()).contains(QUOTAS);
            assertThat(run.rows()).hasSize(all.outcomes().size()).hasSize(16);
        });
        assertThat(all.outcomes()).filteredOn(o -> o.at().get(Axis.CPUS) == 0.5)
                .hasSize(8).allSatisfy(o -> assertThat(o.prediction().orElseThrow().extrapolated())
                        .as("another quota than the calibration's").isTrue());
        assertThat(section.quotas().rows()).isNotEmpty().allSatisfy(r -> assertThat(r.quota()).contains("0.50"));
        assertThat(strip(section.quotas().own())).isEqualTo("0.25 CPU");
        // the forecasts across quotas: the windows at 0.5 alone, not the run's whole
        List<Outcome> across = all.outcomes().stream()
                .filter(o -> o.at().get(Axis.CPUS) == 0.5).toList();
        long judged = across.stream().filter(Outcome::judged).count();
        assertThat(judged).isPositive().isLessThan(all.outcomes().stream().filter(Outcome::judged).count());
        assertThat(strip(section.quotas().across().within())).isEqualTo(across.stream().filter(Outcome::judged)
                .filter(Outcome::withinTolerance).count() + " of " + judged);
        // the totals set the windows at another quota apart from those beyond the calibrated requests at its quota
        List<Outcome> held = all.outcomes().stream().filter(o -> o.at().get(Axis.CPUS) == 0.25)
                .filter(Outcome::judged).toList();
        assertThat(section.totals()).singleElement().satisfies(total -> {
            assertThat(strip(total.range().withinQuota())).startsWith(strip(section.quotas().across().within())
                    + " (");
            assertThat(strip(total.range().withinBeyond())).startsWith(held.stream().filter(o -> o.prediction()
                    .orElseThrow().extrapolated()).filter(Outcome::withinTolerance).count() + " of "
                    + held.stream().filter(o -> o.prediction().orElseThrow().extrapolated()).count() + " (");
            assertThat(judgedIn(total.range().withinInside()) + judgedIn(total.range().withinBeyond())
                    + judgedIn(total.range().withinQuota())).isEqualTo(judgedIn(total.within()));
            // and apart by the machine's speed: every judged window in one column, the misses counted again
            assertThat(judgedIn(total.machine().kept()) + judgedIn(total.machine().changed())
                    + judgedIn(total.machine().unrecorded())).isEqualTo(judgedIn(total.within()));
            List<Outcome> missed = all.outcomes().stream().filter(Outcome::judged)
                    .filter(o -> !o.withinTolerance()).toList();
            assertThat(strip(total.machine().missesKept())).isEqualTo(missed.stream().filter(o -> o
                    .machineAsForecast().orElse(false)).count() + " of " + missed.size());
        });
    }

    /** The judged count of "5 of 6 (83 %)": 6; none judged: 0. */
    private static int judgedIn(String share) {
        String plain = strip(share);
        return plain.equals("none judged") ? 0 : Integer.parseInt(plain.replaceAll("^\\d+ of (\\d+).*$", "$1"));
    }

    /** Two default runs whose β differ: the section says what that earns, beside the constant. */
    @Test
    void theSectionSaysWhatTheDefaultRunsBetasEarn() throws IOException {
        publish(DEFAULT, null);
        publish("default-4", null);
        publish("default-5", null);
        publish(HELD_OUT, null);
        ConstantsEvidence.Beta beta = OffCalibrationSection.of(PublishedRun.readAll(findings)).constants().beta();
        BetaEvidence evidence = ConstantsEvidence.betaEvidence(PublishedRun.readAll(findings));
        assertThat(evidence.runs()).isEqualTo(3);
        assertThat(strip(beta.error())).isEqualTo(String.format(java.util.Locale.ROOT, "%.3f", evidence.error()));
        assertThat(strip(beta.runs())).isEqualTo("3");
        assertThat(beta.holds()).isEqualTo(evidence.holds(BetaEvidence.leastError()));
    }

    private static String strip(String cited) {
        return cited.replaceAll("\\[([^]]*)\\]\\([^)]*\\)", "$1");
    }

    /** "4 of 5 (80 %)" as the page writes it unlinked, or "none judged". */
    private static String namedShare(List<Outcome> judged) {
        long right = judged.stream().filter(o -> o.measuredBinding().equals(o.binding())).count();
        return judged.isEmpty() ? "none judged" : right + " of " + judged.size() + " ("
                + Cite.percent((double) right / judged.size(), Forecast.NAMED_TARGET) + ")";
    }
}
