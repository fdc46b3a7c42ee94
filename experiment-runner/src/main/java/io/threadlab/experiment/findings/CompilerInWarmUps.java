package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.WorkKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The JIT compiler in the published runs' warm-ups: while each JVM's quota was raised so that its compile queue could
 * drain, the CPU its compiler threads used and how long they were ready to run with no CPU, by kind of work and
 * variant, beside how long the boost lasted and whether the warm-up finished. Every boosted JVM counts once; the
 * groups are medians over their JVMs. The JVMs whose requests ran on a large worker pool (platform threads, one a
 * request) are set beside the others, which is where the two kinds of JVM differ in what shares the CPU with the
 * compiler.
 */
final class CompilerInWarmUps {

    /** A worker pool of this many threads or more at the end of the warm-up: one platform thread a request. */
    static final int MANY_WORKERS = 100;

    /** The pool the runner counts a JVM's worker threads in (its thread groups, {@code threads_after}). */
    private static final String WORKER_POOL = "worker pool";

    private static final String SOURCE = "findings/CompilerInWarmUps.java";

    /**
     * @param workers the worker pool's threads at the end of the warm-up (median over the JVMs)
     * @param ran     the compiler threads' CPU in the boost, ms a second (median)
     * @param waited  their time ready with no CPU, ms a second (median)
     * @param perRan  ms waited for each ms run (median over the JVMs)
     */
    record Row(String work, String variant, String jvms, String workers, String ran, String waited, String perRan,
               String boostSeconds, String finished) {
    }

    /**
     * One kind of work's JVMs with a worker pool of {@link #MANY_WORKERS} threads or more beside the others: how many,
     * the median ms waited for each ms run, the median boost; {@code twice}: the first waited more than twice as long.
     */
    record Contrast(String work, String manyJvms, String manyPerRan, String manyBoost, String othersJvms,
                    String othersPerRan, String othersBoost, boolean twice) {
    }

    /** The rows, and each kind of work that has JVMs of both kinds. */
    record Section(String manyWorkers, List<Row> rows, List<Contrast> contrasts) {

        /** Whether any kind of work's JVMs with the pool waited more than twice as long as the others. */
        public boolean anyTwice() {
            return contrasts.stream().anyMatch(Contrast::twice);
        }
    }

    /** One boosted JVM of a published run, and the kind of work it warmed up on. */
    record Boosted(String work, WarmUpResult warmUp) {

        WarmUpResult.CompilerTimes compiler() {
            return warmUp.compilerInBoost().orElseThrow();
        }

        int workers() {
            return warmUp.ergonomics().threadsAfter().getOrDefault(WORKER_POOL, 0);
        }
    }

    private CompilerInWarmUps() {
    }

    /** Empty where no published JVM was boosted. */
    static Optional<Section> of(List<PublishedRun> runs) {
        List<Boosted> boosted = new ArrayList<>();
        for (PublishedRun run : runs) {
            for (WarmUpResult w : run.facts().warmUps()) {
                Optional<String> work = work(run, w);
                if (w.compilerInBoost().isPresent() && work.isPresent()) {
                    boosted.add(new Boosted(work.get(), w));
                }
            }
        }
        return ofBoosted(boosted);
    }

    /** The rows by kind of work, then variant, each in the order it first appears; empty where none was boosted. */
    static Optional<Section> ofBoosted(List<Boosted> boosted) {
        Map<String, Map<String, List<Boosted>>> byWork = new LinkedHashMap<>();
        boosted.forEach(b -> byWork.computeIfAbsent(b.work(), w -> new LinkedHashMap<>())
                .computeIfAbsent(b.warmUp().variant(), v -> new ArrayList<>()).add(b));
        if (byWork.isEmpty()) {
            return Optional.empty();
        }
        List<Row> rows = byWork.values().stream().flatMap(variants -> variants.values().stream())
                .map(CompilerInWarmUps::row).toList();
        List<Contrast> contrasts = new ArrayList<>();
        byWork.forEach((work, variants) -> {
            List<Boosted> all = variants.values().stream().flatMap(List::stream).toList();
            List<Boosted> many = all.stream().filter(b -> b.workers() >= MANY_WORKERS).toList();
            List<Boosted> others = all.stream().filter(b -> b.workers() < MANY_WORKERS).toList();
            if (!many.isEmpty() && !others.isEmpty()) {
                contrasts.add(contrast(work, many, others));
            }
        });
        return Optional.of(new Section(Cite.link(String.valueOf(MANY_WORKERS), Cite.SOURCE + SOURCE), rows,
                contrasts));
    }

    private static Contrast contrast(String work, List<Boosted> many, List<Boosted> others) {
        String file = PublishedRun.FROM_DOCS;
        double manyPerRan = median(many, b -> b.compiler().waitedPerRan());
        double othersPerRan = median(others, b -> b.compiler().waitedPerRan());
        return new Contrast(work, Cite.number(many.size(), 0, file), Cite.number(manyPerRan, 1, file),
                Cite.number(median(many, b -> b.warmUp().boostSeconds()), 0, file), Cite.number(others.size(), 0,
                file), Cite.number(othersPerRan, 1, file), Cite.number(median(others, b -> b.warmUp()
                .boostSeconds()), 0, file), manyPerRan > 2 * othersPerRan);
    }

    /** The kind of work the JVM warmed up on: its first window's; empty for a JVM that measured no window. */
    private static Optional<String> work(PublishedRun run, WarmUpResult w) {
        return run.facts().windows().stream().filter(x -> x.jvmId().equals(w.jvm())).findFirst()
                .map(WindowResult::at).map(WorkKind::of).map(WorkKind::words);
    }

    private static Row row(List<Boosted> jvms) {
        String file = PublishedRun.FROM_DOCS;
        long finished = jvms.stream().filter(b -> b.warmUp().finished()).count();
        return new Row(jvms.getFirst().work(), jvms.getFirst().warmUp().variant(), Cite.number(jvms.size(), 0, file),
                Cite.number(median(jvms, Boosted::workers), 0, file),
                Cite.number(median(jvms, b -> b.compiler().ranMsPerSecond()), 0, file),
                Cite.number(median(jvms, b -> b.compiler().waitedMsPerSecond()), 0, file),
                Cite.number(median(jvms, b -> b.compiler().waitedPerRan()), 1, file),
                Cite.number(median(jvms, b -> b.warmUp().boostSeconds()), 0, file),
                Cite.link(finished + " of " + jvms.size(), file));
    }

    private static double median(List<Boosted> jvms, ToDoubleFunction<Boosted> value) {
        return CollectorStates.median(jvms, value);
    }
}
