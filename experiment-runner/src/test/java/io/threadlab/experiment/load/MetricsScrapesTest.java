package io.threadlab.experiment.load;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The warm-up's background scrapes, with scrapes whose answers the test hands out: no clock, no server. */
class MetricsScrapesTest {

    private final List<CompletableFuture<Boolean>> made = new ArrayList<>();
    private final MetricsScrapes scrapes = new MetricsScrapes(() -> {
        CompletableFuture<Boolean> scrape = new CompletableFuture<>();
        made.add(scrape);
        return scrape;
    });

    @Test
    void aBatchStillWaitingBehindTheQueueStartsNoOtherSoScrapesNeverPileUp() {
        assertThat(scrapes.start(10)).isEqualTo(10);
        made.subList(0, 9).forEach(s -> s.complete(true));
        assertThat(scrapes.start(10)).as("one scrape of the batch still waits").isZero();
        assertThat(made).hasSize(10);
        made.get(9).complete(true);
        assertThat(scrapes.start(10)).isEqualTo(10);
        assertThat(made).hasSize(20);
    }

    @Test
    void onlyScrapesAnsweredWholeCountAndABatchCountsOnceItHasEnded() {
        scrapes.start(3);
        made.get(0).complete(true);
        made.get(1).complete(false); // late, refused or not 200
        assertThat(scrapes.answered()).as("the batch has not ended").isZero();
        made.get(2).complete(true);
        assertThat(scrapes.answered()).isEqualTo(2);
        assertThat(scrapes.answered()).as("counted once").isEqualTo(2);
        scrapes.start(1);
        made.get(3).complete(true);
        assertThat(scrapes.answered()).isEqualTo(3);
    }

    @Test
    void finishingWaitsForTheLastBatchAndCountsIt() throws Exception {
        scrapes.start(2);
        made.get(0).complete(true);
        Thread answerer = Thread.ofVirtual().start(() -> made.get(1).complete(true));
        scrapes.finish();
        answerer.join();
        assertThat(made).allMatch(CompletableFuture::isDone);
        assertThat(scrapes.answered()).isEqualTo(2);
    }
}
