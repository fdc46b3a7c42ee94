package io.threadlab.experiment.analyse;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the JVM was doing while its throughput stalled: the execution samples of a recording inside the stalled
 * seconds of its window (results.json's per_second, matched to the recording by measured_at), summed per stall into
 * its top frames and, where most samples show one, a known chain ({@link KnownChains}).
 */
final class StallChains {

    /** Fewer samples name nothing: a chain named from a handful of samples would be a guess. */
    static final int MIN_SAMPLES = 10;
    /** A chain names a stall when it holds at least this share of the stall's samples: what the JVM mostly did. */
    static final double CHAIN_SHARE = 0.5;
    static final int TOP_FRAMES = 5;

    /** Stalled seconds in the recording's time: [from, to). */
    record Interval(Instant from, Instant to) {

        boolean contains(Instant t) {
            return !t.isBefore(from) && t.isBefore(to);
        }
    }

    private StallChains() {
    }

    /** The seconds of {@code stall}, in a window whose measured interval began at {@code measuredAt}. */
    static Interval interval(Instant measuredAt, Stalls.Stall stall) {
        Instant from = measuredAt.plusSeconds(stall.firstSecond());
        return new Interval(from, from.plusSeconds(stall.seconds()));
    }

    /** Each stall with the samples the recording holds of its seconds (none, where it does not cover them). */
    static List<RecordedStall> read(Path recording, List<Stalls.Stall> stalls, Instant measuredAt)
            throws IOException {
        List<Interval> intervals = stalls.stream().map(s -> interval(measuredAt, s)).toList();
        List<Tally> tallies = stalls.stream().map(s -> new Tally()).toList();
        Map<RecordedStackTrace, List<String>> frames = new IdentityHashMap<>(); // JFR hands out each stack once a chunk
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                    continue;
                }
                for (int i = 0; i < intervals.size(); i++) {
                    if (intervals.get(i).contains(event.getStartTime())) {
                        tallies.get(i).add(new StackSample(ThreadKind.of(event.getThread("sampledThread")),
                                frames.computeIfAbsent(event.getStackTrace(), StallChains::frames)));
                    }
                }
            }
        }
        List<RecordedStall> read = new ArrayList<>();
        for (int i = 0; i < stalls.size(); i++) {
            read.add(tallies.get(i).result(stalls.get(i), intervals.get(i)));
        }
        return read;
    }

    private static List<String> frames(RecordedStackTrace stack) {
        if (stack == null) {
            return List.of();
        }
        List<String> frames = new ArrayList<>();
        for (RecordedFrame frame : stack.getFrames()) {
            if (frame.getMethod() != null) {
                frames.add(StackFacts.withoutHiddenSuffix(frame.getMethod().getType().getName()) + "."
                        + frame.getMethod().getName() + ":" + frame.getLineNumber());
            }
        }
        return frames;
    }

    /** One stall's samples, summed as they stream past. */
    static final class Tally {

        private record Where(ThreadKind group, String leaf, String site) {
        }

        private long samples;
        private final Map<ThreadKind, Long> byGroup = new LinkedHashMap<>();
        private final Map<Where, Long> byFrame = new HashMap<>();
        private final Map<KnownChains.Chain, Long> byChain = new HashMap<>();

        void add(StackSample sample) {
            samples++;
            byGroup.merge(sample.group(), 1L, Long::sum);
            byFrame.merge(new Where(sample.group(), sample.leaf(), sample.site()), 1L, Long::sum);
            KnownChains.of(sample).ifPresent(chain -> byChain.merge(chain, 1L, Long::sum));
        }

        /** The known chain that most of the samples show, however few they are. */
        Optional<KnownChains.Chain> mostShown() {
            return byChain.entrySet().stream().max(Map.Entry.comparingByValue())
                    .filter(e -> e.getValue() >= CHAIN_SHARE * samples).map(Map.Entry::getKey);
        }

        /** The known chain that most of the samples show, if there are enough of them to say. */
        Optional<KnownChains.Chain> chain() {
            return mostShown().filter(c -> samples >= MIN_SAMPLES);
        }

        RecordedStall result(Stalls.Stall stall, Interval interval) {
            Map<String, Long> groups = new LinkedHashMap<>();
            byGroup.entrySet().stream().sorted(Map.Entry.<ThreadKind, Long>comparingByValue().reversed())
                    .forEach(e -> groups.put(key(e.getKey()), e.getValue()));
            List<RecordedStall.Frame> top = byFrame.entrySet().stream()
                    .sorted(Map.Entry.<Where, Long>comparingByValue().reversed().thenComparing(e -> e.getKey().leaf()))
                    .limit(TOP_FRAMES).map(e -> new RecordedStall.Frame(key(e.getKey().group()),
                            e.getKey().leaf(), e.getKey().site(), e.getValue())).toList();
            Optional<KnownChains.Chain> chain = chain();
            Optional<KnownChains.Chain> few = chain.isEmpty() ? mostShown() : Optional.empty();
            return new RecordedStall(stall.firstSecond(), stall.seconds(), Durations.round(stall.meanRate()),
                    Durations.round(stall.steadyRate()), interval.from().toString(), interval.to().toString(), samples,
                    groups, top, chain.map(KnownChains.Chain::name).orElse(null),
                    chain.or(() -> few).map(byChain::get).orElse(0L), few.map(KnownChains.Chain::name).orElse(null));
        }

        private static String key(ThreadKind kind) {
            return kind.name().toLowerCase(Locale.ROOT);
        }
    }
}
