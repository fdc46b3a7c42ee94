package io.threadlab.experiment.plan;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The lab's PostgreSQL for a run with the database downstream: its own CPU quota (a group of its own, like a
 * variant's; its CPU is measured in every window) and the settings that change results, from .env (LAB_DB_*) or
 * their flags, each recorded in the manifest (the data set is lab-database's, recorded there too). Null in a plan
 * without the database.
 *
 * @param cpus           the database's CPU quota
 * @param maxConnections PostgreSQL's own connection slots: a pool that asks for more gets "too many clients"
 */
public record Database(double cpus, int maxConnections, String sharedBuffers, boolean fsync) {

    public Database {
        if (cpus <= 0 || cpus > 64) {
            throw new IllegalArgumentException("--db-cpus must be above 0 and at most 64, was " + cpus);
        }
        if (maxConnections < 4) {
            throw new IllegalArgumentException("--db-max-connections must be at least 4 (PostgreSQL keeps 3 for"
                    + " superusers), was " + maxConnections);
        }
        if (!sharedBuffers.matches("[1-9][0-9]*(kB|MB|GB)")) {
            throw new IllegalArgumentException("LAB_DB_SHARED_BUFFERS must be an amount with its unit (kB, MB, GB),"
                    + " like 128MB, was '" + sharedBuffers + "'");
        }
    }

    /** For the manifest: every setting, by .env's name. */
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("cpus", cpus);
        d.put("max_connections", maxConnections);
        d.put("shared_buffers", sharedBuffers);
        d.put("fsync", fsync ? "on" : "off");
        return d;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s CPU, max_connections %d, shared_buffers %s, fsync %s", cpus,
                maxConnections, sharedBuffers, fsync ? "on" : "off");
    }
}
