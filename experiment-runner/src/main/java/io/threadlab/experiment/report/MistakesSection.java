package io.threadlab.experiment.report;

import java.util.List;

/** The gallery: each mistake beside the correct variant it spoils, as a card ({@link MistakeCards}). */
record MistakesSection(List<MistakeCards.Card> cards) {

    static MistakesSection of(ReportContext c) {
        return new MistakesSection(MistakeCards.of(c.run(), c.ratios(), c.recorded()));
    }
}
