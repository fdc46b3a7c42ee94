package io.threadlab.experiment.analyse;

import io.threadlab.experiment.analyse.Mistakes.Mistake;

import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

import static io.threadlab.experiment.analyse.Mistakes.numbers;
import static io.threadlab.experiment.analyse.Mistakes.top;

/**
 * Hibernate ORM used the way that costs a statement per row: an association left lazy and touched for every row of a
 * page (N+1), on whichever threads run the request code (workers, or virtual threads).
 */
final class OrmMistakes {

    /**
     * Hibernate fetching lazy associations took a tenth of the request threads' execution samples or more. Measured
     * on the gallery's page of 100 articles at 500 users (mistakes-orm-1's recordings): 16 and 20 % of the workers'
     * samples with each article's comments and author fetched one by one, and none in the page through Hibernate with
     * its fetch join, on workers and on virtual threads alike. A sample whose stack was cut at the recording's depth
     * may have lost Hibernate's frames: the share is a lower bound.
     */
    static final double LAZY_LOAD_SHARE = 0.10;
    static final int MIN_LAZY_LOAD_SAMPLES = 20;

    private OrmMistakes() {
    }

    static Optional<Mistake> nPlusOne(RecordingAnalysis a) {
        return Stream.of(ThreadKind.WORKER, ThreadKind.VIRTUAL).map(kind -> nPlusOneOn(a, kind))
                .flatMap(Optional::stream).findFirst();
    }

    private static Optional<Mistake> nPlusOneOn(RecordingAnalysis a, ThreadKind kind) {
        GroupStats g = a.group(kind);
        if (g.lazyLoadSamples < MIN_LAZY_LOAD_SAMPLES || g.executionSamples == 0) {
            return Optional.empty();
        }
        double share = (double) g.lazyLoadSamples / g.executionSamples;
        if (share < LAZY_LOAD_SHARE) {
            return Optional.empty();
        }
        String site = top(g.lazyLoadSites);
        return Optional.of(new Mistake("orm-n-plus-one", true, kind.name().toLowerCase(Locale.ROOT),
                "jdk.ExecutionSample", site, String.format(Locale.ROOT, "the %s spent %.0f %% of their execution"
                                + " samples (%,d of %,d) in Hibernate fetching lazy associations one at a time, touched"
                                + " from %s: a statement per row (N+1), where a fetch join loads the page in one",
                        kind.label(), share * 100, g.lazyLoadSamples, g.executionSamples, site),
                numbers("samples", g.lazyLoadSamples, "group_samples", g.executionSamples,
                        "share_of_group_samples", Durations.round(share))));
    }
}
