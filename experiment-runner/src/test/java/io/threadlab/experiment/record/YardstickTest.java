package io.threadlab.experiment.record;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class YardstickTest {

    @Test
    void aReadingsDifferenceIsTheMeanCpuOfThePiecesBetween() {
        Yardstick.Reading before = new Yardstick.Reading(10, 12_000_000L);
        Yardstick.Reading after = new Yardstick.Reading(14, 12_000_000L + 4 * 1_234_567L);
        assertThat(after.minus(before)).isEqualTo(new Yardstick.Reading(4, 4 * 1_234_567L));
        assertThat(after.minus(before).micros()).isEqualTo(1234.6);
        // too few pieces to average: no figure, never 0
        assertThat(new Yardstick.Reading(2, 2_000_000L).micros()).isNull();
        assertThat(Yardstick.Reading.NONE.micros()).isNull();
    }

    @Test
    void theManifestSaysWhatThePieceIsAndHowOftenItRuns() {
        assertThat(Yardstick.facts()).containsEntry("period_ms", 200L).containsEntry("slower_share", 0.15)
                .containsEntry("work", "40 passes of arithmetic over 32 KB, then 100,000 scattered reads and writes"
                        + " over 16 MB");
    }

    @Test
    void itTimesItsPiecesOnAThreadOfItsOwnUntilClosed() throws InterruptedException {
        Yardstick yardstick = Yardstick.start();
        try {
            // its warm-up first, then one piece every 200 ms; the deadline is only there to end a broken test
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (yardstick.read().samples() < Yardstick.LEAST_SAMPLES && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Yardstick.Reading reading = yardstick.read();
            assertThat(reading.samples()).isGreaterThanOrEqualTo(Yardstick.LEAST_SAMPLES);
            assertThat(reading.micros()).isPositive();
        } finally {
            yardstick.close();
        }
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("lab-yardstick"));
        long samples = yardstick.read().samples();
        Thread.sleep(3 * Yardstick.PERIOD_MILLIS);
        assertThat(yardstick.read().samples()).as("no piece after close").isEqualTo(samples);
    }
}
