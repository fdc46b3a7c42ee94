package io.threadlab.experiment.predict;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a ceiling set by a pool's size earned in the calibration: the workers, the client's connections, the database's
 * pool. A level queued for a pool where more users than its size asked for it, the pool was the lowest of the level's
 * ceilings and the JVM had CPU to spare (under {@link CapacityModel#SATURATED_SHARE} of its quota); its throughput
 * over what the pool's size and the hold time (the delay and the calibration's overhead) allow there is how far that
 * ceiling reads the pool. The ceiling's error is the largest such miss, at least a window's
 * ({@link CapacityModel#LEAST_ERROR}); where no level queued for it, a window's. A pool's size is given, but how long
 * each request holds its slot under load is not: the light levels' overhead says what it held where nothing queued,
 * and a pool released in waves, or a request held through the collector's pauses, serves under it.
 *
 * @param errors   each pool ceiling's error, where a level earned one
 * @param earnedAt how many levels each was earned at
 */
record SlotErrors(Map<Ceiling, Double> errors, Map<Ceiling, Integer> earnedAt) {

    /**
     * @param sizes      each pool ceiling the calibration's JVM had, with its size
     * @param overheadMs what a request took above the delay where nothing queued
     * @param quota      the calibration's CPUs
     * @param pauses     the collector's pauses, which lower a slot's ceiling as in a forecast
     */
    static SlotErrors of(List<Level> levels, Map<Ceiling, Integer> sizes, double overheadMs, double quota,
                         CollectorPauses pauses) {
        Map<Ceiling, Double> errors = new EnumMap<>(Ceiling.class);
        Map<Ceiling, Integer> earnedAt = new EnumMap<>(Ceiling.class);
        for (Level level : levels) {
            double holdSeconds = Math.max(level.delayMs() + overheadMs, 0.05) / 1000;
            double cpu = quota * 1000 / level.cpuMs();
            sizes.entrySet().stream().filter(e -> level.users() > e.getValue())
                    .min(Map.Entry.comparingByValue())
                    .filter(e -> e.getValue() / holdSeconds < Math.min(cpu, level.users() / holdSeconds))
                    .filter(e -> level.cores() < CapacityModel.SATURATED_SHARE * quota)
                    .ifPresent(e -> {
                        double miss = Math.abs(level.rps() / pauses.slotCeiling(e.getValue() / holdSeconds,
                                level.users()) - 1);
                        errors.merge(e.getKey(), miss, Math::max);
                        earnedAt.merge(e.getKey(), 1, Integer::sum);
                    });
        }
        return new SlotErrors(errors, earnedAt);
    }

    /** The ceiling's error: what its levels earned, at least a window's; a window's where none queued for it. */
    double of(Ceiling ceiling) {
        return Math.max(CapacityModel.LEAST_ERROR, errors.getOrDefault(ceiling, CapacityModel.LEAST_ERROR));
    }
}
