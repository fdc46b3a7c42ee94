package io.threadlab.experiment.report;

import java.util.List;

/** What JDK Mission Control will say of each recording, beside what the lab says ({@link JmcBeside}). */
record JmcSection(List<JmcBeside.Table> tables) {

    static JmcSection of(ReportContext c) {
        return new JmcSection(JmcBeside.of(c.run()));
    }
}
