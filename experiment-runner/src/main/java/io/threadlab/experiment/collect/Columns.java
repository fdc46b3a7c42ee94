package io.threadlab.experiment.collect;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * results.csv's columns, read off {@link WindowResult}'s own declaration: each group's fields in order, flat, named
 * as results.json names them; the point's axes are columns of their own. Lists (per-second counts, open-model steps)
 * and the thread groups are results.json's only; failures by cause are written {@code cause:count;cause:count}.
 */
final class Columns {

    private static final PropertyNamingStrategies.SnakeCaseStrategy SNAKE = new PropertyNamingStrategies
            .SnakeCaseStrategy();

    private Columns() {
    }

    static List<String> names() {
        List<String> names = new ArrayList<>();
        for (RecordComponent group : WindowResult.class.getRecordComponents()) {
            if (group.getType() == Point.class) {
                Axis.dimensions().forEach(a -> names.add(a.name()));
            } else if (group.getType().isRecord()) {
                for (RecordComponent field : group.getType().getRecordComponents()) {
                    if (flat(field.getType())) {
                        names.add(SNAKE.translate(field.getName()));
                    }
                }
            }
        }
        return names;
    }

    static List<Object> values(WindowResult row) {
        List<Object> values = new ArrayList<>();
        for (RecordComponent group : WindowResult.class.getRecordComponents()) {
            Object groupValue = read(group, row);
            if (group.getType() == Point.class) {
                Point at = (Point) groupValue;
                Axis.dimensions().forEach(a -> values.add(at == null ? null : at.get(a)));
            } else if (group.getType().isRecord()) {
                for (RecordComponent field : group.getType().getRecordComponents()) {
                    if (flat(field.getType())) {
                        values.add(groupValue == null ? null : cell(read(field, groupValue)));
                    }
                }
            }
        }
        return values;
    }

    /** Scalars and maps of scalars (failures by cause): what a CSV cell holds. */
    private static boolean flat(Class<?> type) {
        return !Collection.class.isAssignableFrom(type);
    }

    private static Object cell(Object value) {
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue())
                    .collect(Collectors.joining(";"));
        }
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT);
        }
        return value;
    }

    private static Object read(RecordComponent component, Object of) {
        try {
            return component.getAccessor().invoke(of);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + component + ": " + e.getMessage(), e);
        }
    }
}
