package io.threadlab.experiment.report;

import java.util.List;

/**
 * The report's opening: its title, each main variant against the worker-thread model in a sentence per point, the top
 * point's ratios as tiles (html), and an alarm where a variant's compiler had not finished.
 */
record HeadlineSection(String title, List<String> sentences, List<Headline.Tile> tiles, List<String> unfinished) {

    static HeadlineSection of(ReportContext c) {
        return new HeadlineSection(c.title(), Headline.sentences(c.run(), c.ratios()),
                Headline.tiles(c.run(), c.ratios()), Headline.unfinished(c.run()));
    }
}
