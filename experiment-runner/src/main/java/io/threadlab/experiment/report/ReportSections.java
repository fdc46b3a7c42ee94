package io.threadlab.experiment.report;

import java.util.List;

/**
 * The report, section by section, in the order both pages show them: a line here, a class that computes what the
 * section shows and its two fragments ({@code sections/<name>.md}, {@code .html}) make a section.
 *
 * <p>report.md and report.html do not place everything alike, and each keeps its own place: a section the other page
 * shows elsewhere has a fragment that says nothing there. The markdown states the setup at its top and lists every
 * chart under one heading; the html puts each chart beside its topic, the ratios against the baseline inside the
 * summary's box (summary.html), and the setup, with the schedule, at its end.
 */
final class ReportSections {

    static final List<Section> ALL = List.of(
            new Section("headline", HeadlineSection::of),
            new Section("setup", SetupSection::of), // markdown only
            new Section("throughput-charts", ChartsSection::of), // html only
            new Section("checks", ChecksSection::of),
            new Section("summary", SummarySection::of),
            new Section("fan-out", FanOutSection::of),
            new Section("burst", BurstSection::of),
            new Section("ratios", RatiosSection::of), // markdown only: the html's are in its summary
            new Section("splits", SplitsSection::of),
            new Section("landscape", LandscapeSection::of),
            new Section("load-placement", c -> LoadPlacementView.of(c.run())),
            new Section("cpu-and-contention", CpuAndContentionSection::of),
            new Section("latency-charts", ChartsSection::of), // html only
            new Section("warm-up", WarmUpSection::of),
            new Section("charts", ChartsSection::of), // markdown only
            new Section("mistakes", MistakesSection::of),
            new Section("open-model-chart", ChartsSection::of), // html only
            new Section("claims", ClaimsSection::of),
            new Section("threads", ThreadsSection::of),
            new Section("jmc", JmcSection::of),
            new Section("setup-and-schedule", SetupSection::of), // html only
            new Section("open-next", OpenNextSection::of));

    private ReportSections() {
    }
}
