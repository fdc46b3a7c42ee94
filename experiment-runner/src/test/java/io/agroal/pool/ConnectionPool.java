package io.agroal.pool;

import java.util.List;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for Agroal's connection pool, so that a test can record a JDBC caller's wait for a connection without a
 * database: a caller that finds every connection in use waits as it does in Agroal 2.8, in
 * {@code ConnectionPool.handlerFromSharedCache}, polling a LinkedTransferQueue. Its park then has the frames of a real
 * one (parked on LinkedTransferQueue, first frame outside the JDK in io.agroal.pool.ConnectionPool), which is what the
 * analysis recognises a pool wait by; hence Agroal's package. Agroal itself is not on the runner's class path.
 */
public final class ConnectionPool<C> {

    private final LinkedTransferQueue<C> idle = new LinkedTransferQueue<>();

    public ConnectionPool(List<C> connections) {
        idle.addAll(connections);
    }

    /** A free connection, waiting for one to be returned while all are in use. */
    public C getConnection() throws InterruptedException {
        return handlerFromSharedCache();
    }

    public void returnConnection(C connection) {
        idle.add(connection);
    }

    private C handlerFromSharedCache() throws InterruptedException {
        while (true) {
            C connection = idle.poll(1, TimeUnit.SECONDS); // Agroal polls with its acquisition timeout
            if (connection != null) {
                return connection;
            }
        }
    }
}
