package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.plan.Headroom;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.record.Yardstick;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who wins where: at every delay and number of users, the JVMs by throughput, the winner's margin over the
 * runner-up, and the ceiling that bound each. A crossover is where the winner changes from one number of users to
 * the next at the same delay, or from one delay to the next at the same users. A lead under {@link #CLEAR} is a
 * tie: cells of one JVM start differ by about 4 % on this kind of machine, so a smaller lead names no winner, and
 * a crossover is only counted between clear leaders. Each JVM counts once per point: its best window there.
 * <p>
 * The JVMs of a cell are measured one after another, and the machine does not keep one speed: a runner-up whose
 * window found the machine slower than the leader's (the runner's fixed piece of work took more CPU, beyond
 * {@link Yardstick#SLOWER_SHARE}) might have served that much more, so its lead must clear {@link #CLEAR} times the
 * slowdown; one whose load generator crowded its room, and which no ceiling of its own is known to have held,
 * served what k6 could send, a floor, and ties the leader.
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
            return leaders().size() == 1;
        }

        /**
         * The leader and the JVMs it does not clearly lead: within {@link #CLEAR} of it once their window's slowdown
         * is allowed for, or measured with k6 crowded.
         */
        public List<Outcome> leaders() {
            return ranked.stream().filter(p -> p == winner() || crowded(p)
                    || winner().measured() / (p.measured() * slowdown(p)) < CLEAR).toList();
        }

        /**
         * Why a JVM the leader leads by {@link #CLEAR} or more ties it all the same, a JVM at a time; empty where the
         * leader is clear.
         */
        public List<Excuse> excused() {
            if (clear()) {
                return List.of();
            }
            return leaders().stream().skip(1).filter(p -> winner().measured() / p.measured() >= CLEAR)
                    .map(p -> new Excuse(p.jvm(), crowded(p) ? Double.NaN : slowdown(p))).toList();
        }

        /** How much slower the machine was in {@code p}'s window than in the leader's; 1 within the yardstick's noise.
         */
        double slowdown(Outcome p) {
            Double mine = p.readings().yardstickUs();
            Double leader = winner().readings().yardstickUs();
            if (mine == null || leader == null || leader <= 0) {
                return 1;
            }
            double ratio = mine / leader;
            return ratio > 1 + Yardstick.SLOWER_SHARE ? ratio : 1;
        }

        /**
         * k6 crowded the window and nothing else is known to have bound it: a JVM held at its workers or connections
         * served what they allow, whatever k6 could send.
         */
        private static boolean crowded(Outcome p) {
            return p.headroom().map(Headroom::crowded).orElse(false)
                    && p.measuredBinding().map(c -> c == Ceiling.CPU).orElse(true);
        }
    }

    /**
     * A JVM the leader's lead does not clear: its window found the machine {@code slowdown} times slower than the
     * leader's, or (NaN) k6 crowded it.
     */
    public record Excuse(String jvm, double slowdown) {
        public boolean crowded() {
            return Double.isNaN(slowdown);
        }

        /** "the machine 1.39× slower for reactive", "k6 crowded reactive" */
        public String describe() {
            return crowded() ? "k6 crowded " + jvm
                    : String.format(Locale.ROOT, "the machine %.2f× slower for %s", slowdown, jvm);
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
