package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * Where requests waited for a pooled database connection, as far as the recording shows it, beside the per-group
 * waits ({@link GroupStats#poolWaits}). A JDBC caller that finds the pool spent parks inside the pool (Agroal's
 * ConnectionPool polls a LinkedTransferQueue): jdk.ThreadPark, from the recording's threshold, with the pool's frames
 * on the stack. A virtual thread parks by unmounting, which the JVM's park event does not see, and the reactive
 * client queues the query, with no thread waiting at all: for those, the pool's own gauges at the window's edges
 * ({@code edges}) say what the recording cannot.
 *
 * @param sites          the pool's wait sites with the most waiting, every group's
 * @param parkThreshold  jdk.ThreadPark's threshold ("1 ms"), "off" when the recording did not enable it, null when
 *                       it does not say
 * @param pinnedThreshold jdk.VirtualThreadPinned's, the same way: a count of 0 pins means something only where on
 * @param readsInFlight  socket reads from the database in flight at once: at most the connections in use
 * @param edges          the pool's gauges in the service's metrics at the window's edges, or null where none were
 *                       scraped
 * @param refusedConnections PostgreSQL's refusals of new connections during the window, from the JVM's log
 *                       ({@link RefusedConnections}), or null where the log was not there to read
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record DatabasePool(List<WaitSites.Site> sites, String parkThreshold, String pinnedThreshold,
                           InFlight.Summary readsInFlight, PoolGauges edges,
                           Long refusedConnections) {

    /** Agroal, the lab's JDBC pool (quarkus-agroal): a wait whose first frame outside the JDK is in it. */
    private static final List<String> JDBC_POOLS = List.of("io.agroal.");

    public DatabasePool {
        sites = sites == null ? List.of() : List.copyOf(sites);
    }

    /** A wait site inside a JDBC connection pool: a caller waiting for a pooled connection. */
    static boolean isJdbcPool(String site) {
        return JDBC_POOLS.stream().anyMatch(site::startsWith);
    }

    /** The same, with the pool's gauges from the window's edges. */
    DatabasePool withEdges(PoolGauges gauges) {
        return new DatabasePool(sites, parkThreshold, pinnedThreshold, readsInFlight, gauges, refusedConnections);
    }

    /** The same, with the refusals of new connections the JVM's log holds for the window. */
    DatabasePool withRefusedConnections(Long refused) {
        return new DatabasePool(sites, parkThreshold, pinnedThreshold, readsInFlight, edges, refused);
    }

    /** "of 1 ms or more": the parks the recording holds. */
    String recordedParks() {
        return parkThreshold == null ? "long enough to be recorded" : "of " + parkThreshold + " or more";
    }
}
