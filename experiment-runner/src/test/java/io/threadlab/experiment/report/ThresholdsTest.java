package io.threadlab.experiment.report;

import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.testing.CalibratedRunFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every threshold the report's prose names comes from the constant that enforces it: a report quoting other
 * thresholds says the others, and no template types a threshold of its own.
 */
class ThresholdsTest {

    /** A share, a bound or a ratio written as a number in a template: "15 %", "±10 %", "≥ 5", "1.5×". */
    private static final Pattern TYPED = Pattern.compile("\\d+(\\.\\d+)? %|±\\d|≥ \\d|\\d\\.\\d+×|\\+ \\d+ ms");
    /** The html page, the prose, the findings page and every section's two fragments. */
    private static final List<String> TEMPLATES = Stream.concat(Stream.of(
            "/io/threadlab/experiment/report/report.html", "/io/threadlab/experiment/report/prose.txt",
            "/io/threadlab/experiment/findings/findings.md"), ReportSections.ALL.stream().flatMap(s -> Stream.of(".md",
            ".html").map(format -> "/io/threadlab/experiment/report/sections/" + s.name() + format))).toList();

    @Test
    void theProseFollowsTheThresholdsItIsGiven(@TempDir Path dir) throws IOException {
        CalibratedRunFixture.calibrated(dir);
        Run run = Run.read(dir);
        String enforced = Pages.of(ReportContext.of(run, Thresholds.ENFORCED), ReportSections.ALL).markdown();
        assertThat(enforced).contains("within " + pct(Forecast.TOLERANCE) + " of the prediction")
                .contains("at least " + pct(Thresholds.ENFORCED.busyShare()) + " of its quota");

        Thresholds other = new Thresholds(0.2, 1.3, 0.7, 1.08, 0.12, 150, 0.9, 0.02, 0.75, 2.0, 0.9);
        Pages quoting = Pages.of(ReportContext.of(run, other), ReportSections.ALL);
        assertThat(quoting.markdown()).contains("the target is the measurement within 20 % of the prediction",
                "the next is at least 30 % higher", "at least 70 % of its quota")
                .doesNotContain("the target is the measurement within 15 %");
        assertThat(quoting.html()).contains("within 20 %").contains("the whisker the 90 % interval");
    }

    @Test
    void theThresholdsAreTheEnforcingConstants() {
        assertThat(Thresholds.ENFORCED.tolerancePct()).isEqualTo(pct(Forecast.TOLERANCE));
        assertThat(Thresholds.ENFORCED.clearMarginPct()).isEqualTo(pct(Forecast.CLEAR_MARGIN - 1));
        assertThat(Thresholds.ENFORCED.ratioHalfWidthPct()).isEqualTo("±" + pct(SpreadChecks.TARGET_RATIO_HALF_WIDTH));
        assertThat(Decision.TARGET).isEqualTo(SpreadChecks.TARGET_RATIO_HALF_WIDTH);
    }

    @Test
    void noTemplateTypesAThresholdOfItsOwn() throws IOException {
        List<String> typed = new ArrayList<>();
        for (String template : TEMPLATES) {
            try (InputStream in = ThresholdsTest.class.getResourceAsStream(template)) {
                assertThat(in).as(template).isNotNull();
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).replaceAll("(?s)\\{!.*?!}", "");
                Matcher m = TYPED.matcher(text);
                while (m.find()) {
                    typed.add(template + ": '" + m.group() + "' in ..." + text.substring(Math.max(0, m.start() - 40),
                            Math.min(text.length(), m.end() + 20)).replace('\n', ' ') + "...");
                }
            }
        }
        assertThat(typed).isEmpty();
    }

    private static String pct(double share) {
        return String.format(java.util.Locale.ROOT, "%.0f %%", share * 100);
    }
}
