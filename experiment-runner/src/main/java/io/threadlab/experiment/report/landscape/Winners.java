package io.threadlab.experiment.report.landscape;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who wins where: at every delay and number of users, the JVMs by throughput, the winner's margin over the
 * runner-up, and the ceiling that bound each. A crossover is where the winner changes from one number of users to
 * the next at the same delay, or from one delay to the next at the same users. A lead under {@link #CLEAR} is a
 * tie: cells of one JVM start differ by about 4 % on this kind of machine, so a smaller lead names no winner, and
 * a crossover is only counted between clear leaders. Each JVM counts once per point: its best window there.
 */
public final class Winners {

    /** The smallest winner-over-runner-up ratio that names a winner. */
    public static final double CLEAR = 1.05;

    /** One grid point: the JVMs ranked, best first. */
    public record Cell(int delayMs, int users, List<Outcome> ranked) {
        public Outcome winner() {
            return ranked.getFirst();
        }

        /** Winner over runner-up (NaN with one JVM). */
        public double margin() {
            return ranked.size() < 2 ? Double.NaN : ranked.get(0).measured() / ranked.get(1).measured();
        }

        /** Whether the leader is clearly ahead (always, with one JVM). */
        public boolean clear() {
            return ranked.size() < 2 || margin() >= CLEAR;
        }

        /** The JVMs within {@link #CLEAR} of the leader: one when it is clear, the tied ones otherwise. */
        public List<Outcome> leaders() {
            return ranked.stream().filter(p -> winner().measured() / p.measured() < CLEAR).toList();
        }
    }

    /** Where the winner changes: along users (at one delay) or along delays (at one users). */
    public record Crossover(String along, int delayMs, int users, String from, String to, int fromAt, int toAt) {
    }

    private Winners() {
    }

    public static List<Cell> cells(List<Outcome> points) {
        Map<Integer, Map<Integer, List<Outcome>>> grid = new TreeMap<>();
        points.forEach(p -> grid.computeIfAbsent(p.delayMs(), d -> new TreeMap<>())
                .computeIfAbsent(p.users(), u -> new ArrayList<>()).add(p));
        List<Cell> cells = new ArrayList<>();
        grid.forEach((delay, byUsers) -> byUsers.forEach((users, at) -> {
            // one point per JVM: the best of its repetitions
            Map<String, Outcome> best = new LinkedHashMap<>();
            at.forEach(p -> best.merge(p.jvm(), p, (a, b) -> a.measured() >= b.measured() ? a : b));
            List<Outcome> ranked = best.values().stream().sorted(Comparator.comparingDouble(Outcome::measured).reversed())
                    .toList();
            cells.add(new Cell(delay, users, ranked));
        }));
        return cells;
    }

    public static List<Crossover> crossovers(List<Cell> cells) {
        List<Crossover> found = new ArrayList<>();
        Map<Integer, List<Cell>> byDelay = new TreeMap<>();
        Map<Integer, List<Cell>> byUsers = new TreeMap<>();
        cells.forEach(c -> {
            byDelay.computeIfAbsent(c.delayMs(), d -> new ArrayList<>()).add(c);
            byUsers.computeIfAbsent(c.users(), u -> new ArrayList<>()).add(c);
        });
        byDelay.forEach((delay, row) -> walk(row.stream().filter(Cell::clear).toList(), "users", found));
        byUsers.forEach((users, column) -> walk(column.stream().filter(Cell::clear).toList(), "delay", found));
        return found;
    }

    private static void walk(List<Cell> line, String along, List<Crossover> found) {
        for (int i = 1; i < line.size(); i++) {
            Cell before = line.get(i - 1);
            Cell after = line.get(i);
            if (!before.winner().jvm().equals(after.winner().jvm())) {
                boolean users = along.equals("users");
                found.add(new Crossover(along, users ? after.delayMs() : before.delayMs(),
                        users ? before.users() : after.users(), before.winner().jvm(), after.winner().jvm(),
                        users ? before.users() : before.delayMs(), users ? after.users() : after.delayMs()));
            }
        }
    }
}
