package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values a plan measures on each axis, in nesting order: the first axis is the outermost loop. Within one JVM the
 * windows follow {@link #points()}, so that consecutive windows share what the outer axes set (one k6 load at one
 * number of users runs on from one delay to the next).
 */
public final class Grid {

    private final Map<Axis<?>, List<?>> values;

    private Grid(Map<Axis<?>, List<?>> values) {
        this.values = values;
    }

    public static Grid of() {
        return new Grid(new LinkedHashMap<>());
    }

    /** This grid with one more axis, nested inside the ones before it; an empty list leaves the axis out. */
    public <T extends Comparable<T>> Grid and(Axis<T> axis, List<T> axisValues) {
        if (axisValues.isEmpty()) {
            return this;
        }
        if (axisValues.stream().distinct().count() < axisValues.size()) {
            throw new IllegalArgumentException(axis.flag().name() + " names a value twice: " + axisValues);
        }
        Map<Axis<?>, List<?>> next = new LinkedHashMap<>(values);
        next.put(axis, List.copyOf(axisValues));
        return new Grid(next);
    }

    @SuppressWarnings("unchecked")
    public <T extends Comparable<T>> List<T> values(Axis<T> axis) {
        return (List<T>) values.getOrDefault(axis, List.of());
    }

    public List<Axis<?>> axes() {
        return List.copyOf(values.keySet());
    }

    /** Every combination, the first axis outermost. */
    public List<Point> points() {
        List<Point> points = List.of(Point.NONE);
        for (Map.Entry<Axis<?>, List<?>> axis : values.entrySet()) {
            List<Point> next = new ArrayList<>();
            for (Point p : points) {
                for (Object v : axis.getValue()) {
                    next.add(with(p, axis.getKey(), v));
                }
            }
            points = next;
        }
        return points;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Point with(Point p, Axis axis, Object value) {
        return p.with(axis, (Comparable) value);
    }
}
