package io.threadlab.database;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The server settings that can change what the lab measures, each explicit, passed on the server's command line
 * ({@code -c name=value}) and recorded through {@link #asMap()}. Nothing is left to postgresql.conf or to initdb's
 * guesses about the machine.
 *
 * @param port                        TCP port on {@code listenAddresses}
 * @param listenAddresses             where the server listens: loopback only, except in a container
 * @param maxConnections              connection slots, the services' pools and the runner's own included
 * @param sharedBuffers               PostgreSQL's page cache, with its unit (kB, MB, GB)
 * @param workMem                     memory of one sort or hash before it spills to disk, with its unit
 * @param fsync                       whether writes are forced to disk
 * @param synchronousCommit           whether a commit waits for its WAL flush ({@code on}, {@code off}, ...)
 * @param maxParallelWorkersPerGather worker processes one query may add beside its backend
 * @param jit                         whether expensive queries are compiled with LLVM
 */
public record PostgresSettings(int port, String listenAddresses, int maxConnections, String sharedBuffers,
                               String workMem, boolean fsync, String synchronousCommit,
                               int maxParallelWorkersPerGather, boolean jit) {

    /** The lab's processes show up in {@code ps} as "postgres: lab-database: ...", whoever started them. */
    private static final String CLUSTER_NAME = "lab-database";

    private static final Pattern MEMORY = Pattern.compile("[1-9][0-9]*(kB|MB|GB)");
    private static final Set<String> SYNCHRONOUS_COMMIT = Set.of("on", "off", "local", "remote_write", "remote_apply");

    /**
     * The lab's defaults.
     * <ul>
     * <li>port 5432: PostgreSQL's own, so that tools and {@code quarkus dev} find it where they look first;</li>
     * <li>127.0.0.1: the lab's machines have loopback only, and a benchmark database is no one else's business;</li>
     * <li>max_connections 200: the default run starts 6 service JVMs side by side (3 variants x 2 JVM starts), each
     * with a pool of LAB_DB_POOL_SIZE=20, so 120, plus room for the control, the mistakes and a psql; a pool that
     * asks for more gets PostgreSQL's "too many clients", never a silent queue;</li>
     * <li>shared_buffers 128MB: PostgreSQL's own default; the default data set takes about 1 MB, so every query reads
     * from shared buffers and never from disk, whatever the value, and the memory stays small on a 2-core box;</li>
     * <li>work_mem 4MB: PostgreSQL's own default; the page query sorts about 200 rows, far below it;</li>
     * <li>fsync on, synchronous_commit on: as a real database; the page query only reads, so neither enters a
     * measured window (the data is loaded, then frozen and checkpointed, before anything is measured);</li>
     * <li>max_parallel_workers_per_gather 0: in a 0.5-CPU group a parallel worker only competes with its own leader
     * for the quota, and a plan that goes parallel on one run and not on another is noise;</li>
     * <li>jit off: LLVM compilation of a query happens only above a cost threshold, which would make some runs of the
     * same query pay compilation and others not.</li>
     * </ul>
     */
    public static PostgresSettings defaults() {
        return new PostgresSettings(5432, "127.0.0.1", 200, "128MB", "4MB", true, "on", 0, false);
    }

    public PostgresSettings {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1 to 65535, not " + port);
        }
        if (listenAddresses == null || listenAddresses.isBlank() || !listenAddresses.matches("[0-9A-Za-z.:*,]+")) {
            throw new IllegalArgumentException("listen addresses must be addresses or *, like 127.0.0.1 or 0.0.0.0, not '"
                    + listenAddresses + "'");
        }
        if (maxConnections < 4 || maxConnections > 10_000) {
            // PostgreSQL reserves 3 slots for superusers and needs one more for any other connection.
            throw new IllegalArgumentException("max connections must be 4 to 10000, not " + maxConnections);
        }
        requireMemory("shared buffers", sharedBuffers);
        requireMemory("work mem", workMem);
        if (!SYNCHRONOUS_COMMIT.contains(synchronousCommit)) {
            throw new IllegalArgumentException("synchronous commit must be one of " + SYNCHRONOUS_COMMIT + ", not '"
                    + synchronousCommit + "'");
        }
        if (maxParallelWorkersPerGather < 0 || maxParallelWorkersPerGather > 64) {
            throw new IllegalArgumentException("max parallel workers per gather must be 0 to 64, not "
                    + maxParallelWorkersPerGather);
        }
    }

    private static void requireMemory(String what, String value) {
        if (value == null || !MEMORY.matcher(value).matches()) {
            throw new IllegalArgumentException(what + " must be a whole amount with its unit (kB, MB or GB), like 128MB,"
                    + " not '" + value + "'");
        }
    }

    public PostgresSettings withPort(int port) {
        return new PostgresSettings(port, listenAddresses, maxConnections, sharedBuffers, workMem, fsync,
                synchronousCommit, maxParallelWorkersPerGather, jit);
    }

    /** Whether clients may come from beyond this machine (a container's network), which pg_hba.conf must allow. */
    boolean listensBeyondLoopback() {
        for (String address : listenAddresses.split(",")) {
            if (!address.equals("127.0.0.1") && !address.equals("::1") && !address.equals("localhost")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every setting the server is started with, by PostgreSQL's name and in PostgreSQL's spelling (what
     * {@code SHOW name} answers), for a manifest: the ones above and the fixed ones that only make the server the
     * lab's (no Unix socket, so two servers never share a lock file; UTC; messages in English, which the lab reads).
     */
    public Map<String, String> asMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("port", String.valueOf(port));
        map.put("listen_addresses", listenAddresses);
        map.put("max_connections", String.valueOf(maxConnections));
        map.put("shared_buffers", sharedBuffers);
        map.put("work_mem", workMem);
        map.put("fsync", fsync ? "on" : "off");
        map.put("synchronous_commit", synchronousCommit);
        map.put("max_parallel_workers_per_gather", String.valueOf(maxParallelWorkersPerGather));
        map.put("jit", jit ? "on" : "off");
        map.put("unix_socket_directories", "");
        map.put("cluster_name", CLUSTER_NAME);
        map.put("timezone", "Etc/UTC");
        map.put("lc_messages", "C");
        return map;
    }
}
