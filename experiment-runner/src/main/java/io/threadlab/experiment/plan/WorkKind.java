package io.threadlab.experiment.plan;

/**
 * The kind of work a point asks for: its values on the axes calibrated apart ({@link Axis#calibratedApart}: what the
 * requests wait on, and how), each kind calibrated by a capacity model of its own.
 */
public final class WorkKind {

    private WorkKind() {
    }

    /**
     * The point's kind: its values on the axes calibrated apart, those at their quiet value left out
     * ({@link Point#NONE}: the delay service's one call, as the lab has always calibrated).
     */
    public static Point of(Point at) {
        Point kind = Point.NONE;
        for (Axis<?> axis : Axis.all()) {
            if (axis.calibratedApart() && at.has(axis) && !axis.quiet(at.get(axis))) {
                kind = kind.and(at.only(axis));
            }
        }
        return kind;
    }

    /** A kind in words, as the findings page and predict say it: "the delay service", "the database, through ...". */
    public static String words(Point kind) {
        return kind.isEmpty() ? "the delay service" : kind.describe();
    }

    /** A kind's label, as the predictions key their models: "http", "db", "db-orm". */
    public static String label(Point kind) {
        StringBuilder label = new StringBuilder(kind.has(Axis.DOWNSTREAM) ? kind.get(Axis.DOWNSTREAM).label() : "http");
        for (Axis<?> axis : kind.axes()) {
            if (axis != Axis.DOWNSTREAM) {
                label.append('-').append(axis.json(kind.get(axis)));
            }
        }
        return label.toString();
    }
}
