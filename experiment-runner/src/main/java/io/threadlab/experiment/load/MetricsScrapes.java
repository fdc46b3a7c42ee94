package io.threadlab.experiment.load;

import io.threadlab.experiment.process.StepInterrupted;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The warm-up's scrapes of a variant's /q/metrics, made in the background of its samples. They are made for their
 * effect on the JIT (the windows read the metrics at their edges, so that path must be compiled before them), not for
 * their answer, so a sample does not wait for them. It used to: behind 3,000 users' queue on 0.5 CPU a scrape waited
 * its turn for seconds, ten of them one after another held the imperative JVM's first boosted sample 29 s, and its
 * samples of 2 s came every 3.3 s on average (map 2026-11-28T05-23-13Z). A batch is started only once the last one
 * has ended, so scrapes never pile up behind a queue; a scrape counts once its whole answer came back.
 */
final class MetricsScrapes {

    private final Supplier<CompletableFuture<Boolean>> scrape;
    private List<CompletableFuture<Boolean>> batch = List.of();
    private int answered;

    /** @param scrape makes one scrape: true when it was answered whole, false otherwise; never fails */
    MetricsScrapes(Supplier<CompletableFuture<Boolean>> scrape) {
        this.scrape = scrape;
    }

    /** Starts {@code n} scrapes, unless the last batch is still waiting; how many were started. */
    int start(int n) {
        countEnded();
        if (!batch.isEmpty()) {
            return 0;
        }
        batch = Stream.generate(scrape).limit(n).toList();
        return n;
    }

    /** Scrapes answered whole so far; a batch's are counted once all of it has ended. */
    int answered() {
        countEnded();
        return answered;
    }

    /** Waits for the last batch (every scrape ends by its own deadline), so that none runs into what follows. */
    void finish() {
        for (CompletableFuture<Boolean> one : batch) {
            try {
                one.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StepInterrupted("the warm-up's scrapes of the metrics path");
            } catch (ExecutionException e) {
                // a scrape's future reports its failure as false, never as an exception
            }
        }
        countEnded();
    }

    private void countEnded() {
        if (!batch.isEmpty() && batch.stream().allMatch(CompletableFuture::isDone)) {
            answered += (int) batch.stream().filter(f -> f.getNow(false)).count();
            batch = List.of();
        }
    }
}
