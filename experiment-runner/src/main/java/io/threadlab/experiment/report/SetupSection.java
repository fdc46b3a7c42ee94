package io.threadlab.experiment.report;

import java.util.List;

/**
 * How the run was set up, in a paragraph, and the schedule as it ran. The markdown says the setup first; the html
 * says it last, with the schedule: two places, one section each ({@code setup}, {@code setup-and-schedule}).
 */
record SetupSection(String text, List<Setup.Step> schedule) {

    static SetupSection of(ReportContext c) {
        return new SetupSection(Setup.text(c.run()), Setup.schedule(c.run()));
    }
}
