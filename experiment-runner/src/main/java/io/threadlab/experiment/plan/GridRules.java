package io.threadlab.experiment.plan;

import java.util.List;

/**
 * The rules that tie one axis of a grid to another, or to the variants, checked where the plan is made: kept here so
 * that a value type (a burst, a way of reading the page) knows nothing of the axes and variants that carry it.
 */
final class GridRules {

    private GridRules() {
    }

    /**
     * A grid has the closed model's users (from 1 to 10,000) or a burst's requests, never both; a burst is a run of
     * its own ({@code alongside}: an open model, a time to peak, precision on demand or a map was asked for beside it).
     */
    static void scenario(Grid grid, boolean alongside) {
        boolean burst = !grid.values(Axis.REQUESTS).isEmpty();
        List<Integer> users = grid.values(Axis.USERS);
        if (burst && !users.isEmpty()) {
            throw new IllegalArgumentException("a burst has requests, not users: --levels is the closed model's");
        }
        if (!burst && (users.isEmpty() || users.stream().anyMatch(l -> l < 1 || l > 10_000))) {
            throw new IllegalArgumentException("--levels must be user counts from 1 to 10000, was " + users);
        }
        if (burst && alongside) {
            throw new IllegalArgumentException("a burst is a run of its own: no open model, time to peak, precision on"
                    + " demand or map beside it");
        }
    }

    /** Hibernate reads the database's page: it needs the database downstream, and a variant with the endpoint. */
    static void dbAccess(Grid grid, List<Variant> variants) {
        if (grid.values(Axis.DB_ACCESS).stream().allMatch(a -> a == DbAccess.JDBC)) {
            return;
        }
        if (!grid.values(Axis.DOWNSTREAM).contains(Downstream.DB)) {
            throw new IllegalArgumentException("--db-access orm reads the database's page: it needs --downstream db");
        }
        if (variants.stream().noneMatch(v -> v.endpoints().dbAccess().contains(DbAccess.ORM))) {
            throw new IllegalArgumentException("--db-access orm: no variant of " + variants.stream()
                    .map(Variant::label).toList() + " reads the page through Hibernate");
        }
    }
}
