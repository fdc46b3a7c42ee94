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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every threshold the report's prose names comes from the constant that enforces it: a report quoting other
 * thresholds says the others, and no template types a threshold of its own.
 */
class ThresholdsTest {

    /** A share, a bound or a ratio written as a number in a template: "15 %", "±10 %", "≥ 5", "1.5×". */
    private static final Pattern TYPED = Pattern.compile("\\d+(\\.\\d+)? %|±\\d|≥ \\d|\\d\\.\\d+×|\\+ \\d+ ms");
    private static final List<String> TEMPLATES = List.of("/io/threadlab/experiment/report/report.md",
            "/io/threadlab/experiment/report/report.html", "/io/threadlab/experiment/report/prose.txt",
            "/io/threadlab/experiment/findings/findings.md");

    @Test
    void theProseFollowsTheThresholdsItIsGiven(@TempDir Path dir) throws IOException {
        CalibratedRunFixture.calibrated(dir);
        ReportModel model = ReportModel.of(Run.read(dir));
        String enforced = Templates.markdown(model);
        assertThat(enforced).contains("within " + pct(Forecast.TOLERANCE) + " of the prediction")
                .contains("at least " + pct(Thresholds.ENFORCED.busyShare()) + " of its quota");

        Thresholds other = new Thresholds(0.2, 1.3, 0.7, 1.08, 0.12, 150, 0.9, 0.02, 0.75, 2.0, 0.9);
        String quoted = Templates.markdown(model.quoting(other));
        assertThat(quoted).contains("the target is the measurement within 20 % of the prediction",
                "the next is at least 30 % higher", "at least 70 % of its quota")
                .doesNotContain("the target is the measurement within 15 %");
        assertThat(Templates.html(model.quoting(other))).contains("within 20 %").contains("the whisker the 90 %"
                + " interval");
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
