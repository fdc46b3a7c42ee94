package io.threadlab.experiment.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A point of the grid: a value on some of the {@link Axis axes}, kept in {@link Axis#all()}'s order. A window is
 * measured at a point (every axis it has), a JVM is started at one (its JVM axes), a report cell is one (the window
 * axes); results.json writes it as one object, {@code {"cpu_quota": 0.5, "delay_ms": 10, "users": 100}}.
 */
public final class Point implements Comparable<Point> {

    public static final Point NONE = new Point(Map.of());

    private final Map<Axis<?>, Object> values;

    private Point(Map<Axis<?>, Object> values) {
        Map<Axis<?>, Object> ordered = new LinkedHashMap<>();
        Axis.all().stream().filter(values::containsKey).forEach(a -> ordered.put(a, values.get(a)));
        this.values = java.util.Collections.unmodifiableMap(ordered);
    }

    public static <T extends Comparable<T>> Point of(Axis<T> axis, T value) {
        return NONE.with(axis, value);
    }

    /** This point with {@code axis} at {@code value} (null: without that axis). */
    public <T extends Comparable<T>> Point with(Axis<T> axis, T value) {
        Map<Axis<?>, Object> next = new LinkedHashMap<>(values);
        if (value == null) {
            next.remove(axis);
        } else {
            next.put(axis, value);
        }
        return new Point(next);
    }

    /** This point's values, overridden by {@code other}'s where it has them. */
    public Point and(Point other) {
        Map<Axis<?>, Object> next = new LinkedHashMap<>(values);
        next.putAll(other.values);
        return new Point(next);
    }

    /** The value on {@code axis}, or null where this point says nothing about it. */
    public <T extends Comparable<T>> T get(Axis<T> axis) {
        return axis.type().cast(values.get(axis));
    }

    /** The value on {@code axis}, or the axis' own fallback where this point says nothing (one call, in parallel). */
    public <T extends Comparable<T>> T getOrFallback(Axis<T> axis) {
        return has(axis) ? get(axis) : axis.fallback();
    }

    public boolean has(Axis<?> axis) {
        return values.containsKey(axis);
    }

    public List<Axis<?>> axes() {
        return List.copyOf(values.keySet());
    }

    /** Only the axes of {@code scope}: a JVM's setup, or what changes between its windows. */
    public Point only(Axis.Scope scope) {
        Map<Axis<?>, Object> kept = new LinkedHashMap<>();
        values.forEach((a, v) -> {
            if (a.scope() == scope) {
                kept.put(a, v);
            }
        });
        return new Point(kept);
    }

    /** Only the given axes' values. */
    public Point only(Axis<?>... axes) {
        Map<Axis<?>, Object> kept = new LinkedHashMap<>();
        for (Axis<?> a : axes) {
            if (values.containsKey(a)) {
                kept.put(a, values.get(a));
            }
        }
        return new Point(kept);
    }

    /** Without the given axes. */
    public Point without(Axis<?>... axes) {
        Map<Axis<?>, Object> kept = new LinkedHashMap<>(values);
        for (Axis<?> a : axes) {
            kept.remove(a);
        }
        return new Point(kept);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** For results.json: axis name to value. */
    @JsonValue
    public Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        values.forEach((a, v) -> out.put(a.name(), a.json(v)));
        return out;
    }

    /** From results.json; names it does not know (a later runner's axis) are refused, naming them. */
    @JsonCreator
    public static Point fromJson(Map<String, Object> json) {
        Map<Axis<?>, Object> values = new LinkedHashMap<>();
        json.forEach((name, value) -> {
            Axis<?> axis = Axis.named(name).orElseThrow(() -> new IllegalArgumentException("unknown axis '" + name
                    + "'; this runner knows " + Axis.all()));
            if (value != null) {
                values.put(axis, axis.cast(value));
            }
        });
        return new Point(values);
    }

    /** "300 ms, 3,000 users": the axes in words, for tables; JVM axes in the JVM's name. */
    public String describe() {
        return values.entrySet().stream().map(e -> words(e.getKey(), e.getValue())).collect(Collectors.joining(", "));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String words(Axis axis, Object value) {
        return axis.words((Comparable) value);
    }

    /** For a cell's name in a check or a file: {@code 300ms/3000}; one axis: its value. */
    public String tag() {
        return values.entrySet().stream().map(e -> e.getKey() == Axis.DELAY_MS ? e.getValue() + "ms"
                : String.valueOf(e.getKey().json(e.getValue()))).collect(Collectors.joining("/"));
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int compareTo(Point other) {
        for (Axis<?> axis : Axis.all()) {
            Comparable a = (Comparable) values.get(axis);
            Comparable b = (Comparable) other.values.get(axis);
            int c = a == null ? (b == null ? 0 : -1) : b == null ? 1 : a.compareTo(b);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Orders points by the given axes first (e.g. delay before users), then as {@link #compareTo}. */
    public static Comparator<Point> by(Axis<?>... first) {
        Comparator<Point> order = (a, b) -> 0;
        for (Axis<?> axis : first) {
            order = order.thenComparing(p -> (Comparable) p.values.get(axis),
                    Comparator.nullsFirst(Comparator.naturalOrder()));
        }
        return order.thenComparing(Comparator.naturalOrder());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Point p && values.equals(p.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return json().toString();
    }
}
