package io.threadlab.experiment.analyse.jmc;

import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;

/** What JMC's rules cost the analysis, said after it: the lab's target is at most {@link #TARGET_SECONDS} a recording. */
public final class JmcTiming {

    public static final double TARGET_SECONDS = 10;

    private JmcTiming() {
    }

    public static String line(List<JmcRecording> recordings) {
        DoubleSummaryStatistics s = recordings.stream().mapToDouble(JmcRecording::seconds).summaryStatistics();
        if (s.getCount() == 0) {
            return "JMC's rules: no recording";
        }
        long warnings = recordings.stream().mapToLong(j -> j.count(RuleResult.WARNING)).sum();
        long unread = recordings.stream().filter(j -> j.failure() != null).count();
        return String.format(Locale.ROOT, "JMC's rules: %d recording%s, %.1f s at most (mean %.1f; the target is %.0f"
                        + " s each), %d warning%s%s", s.getCount(), s.getCount() == 1 ? "" : "s", s.getMax(),
                s.getAverage(), TARGET_SECONDS, warnings, warnings == 1 ? "" : "s", unread == 0 ? ""
                        : String.format(Locale.ROOT, "; %d not read, each named above", unread));
    }
}
