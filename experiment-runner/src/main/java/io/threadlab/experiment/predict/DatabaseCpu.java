package io.threadlab.experiment.predict;

import java.util.Comparator;
import java.util.List;

/** PostgreSQL's CPU per query, as the calibration levels measured it at their throughputs. */
final class DatabaseCpu {

    private DatabaseCpu() {
    }

    /**
     * The database's CPU per query at a throughput: between the calibration levels' by their throughput (PostgreSQL's
     * cost per query moves with its load), the nearest level's beyond them; NaN without the database.
     */
    static double msPerQueryAt(List<Level> levels, double rps) {
        List<Level> queries = levels.stream().filter(l -> l.dbCpuMs() > 0).sorted(Comparator.comparingDouble(
                Level::rps)).toList();
        if (queries.isEmpty()) {
            return Double.NaN;
        }
        if (rps <= queries.getFirst().rps()) {
            return queries.getFirst().dbCpuMs();
        }
        for (int i = 1; i < queries.size(); i++) {
            Level a = queries.get(i - 1);
            Level b = queries.get(i);
            if (rps <= b.rps()) {
                return a.dbCpuMs() + (rps - a.rps()) / (b.rps() - a.rps()) * (b.dbCpuMs() - a.dbCpuMs());
            }
        }
        return queries.getLast().dbCpuMs();
    }
}
