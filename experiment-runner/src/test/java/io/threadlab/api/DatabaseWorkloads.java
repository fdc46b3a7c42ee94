package io.threadlab.api;

import io.agroal.pool.ConnectionPool;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * In-process workloads with the database windows' thread signatures, for recording at test time. The "database" is a
 * loopback stub on a port of its own (a second {@link SignatureWorkloads}: one byte in, one byte back after 10 ms, as
 * a page query with a wait of 10 ms), reached as the JDBC variants reach PostgreSQL: each request takes a connection
 * from a pool whose callers wait inside {@link ConnectionPool} (Agroal's frames) while every connection is in use,
 * blocks in its socket read for the reply, and gives the connection back. The reactive client's signature is the
 * event loop of {@link SignatureWorkloads} against the database's port. Each workload returns the requests it made.
 */
public final class DatabaseWorkloads implements AutoCloseable {

    private final SignatureWorkloads database;

    public DatabaseWorkloads() throws IOException {
        database = new SignatureWorkloads();
    }

    public int databasePort() {
        return database.delayPort();
    }

    /** JDBC on workers (imperative): threads named like Quarkus' worker pool share {@code connections}. */
    public long jdbcOnWorkers(int threads, int connections, Duration duration) throws Exception {
        return onPlatformThreads("executor-thread-", 1, threads, connections, duration,
                pool -> SignatureWorkloads.handleRequest(pool::query));
    }

    /**
     * JDBC on the event loop (the jdbc-on-event-loop mistake): two threads named like Vert.x's event loops run the
     * same JDBC calls, blocking in the pool and in the driver's reads, with the event loop's light request code.
     */
    public long jdbcOnEventLoop(int connections, Duration duration) throws Exception {
        return onPlatformThreads("vert.x-eventloop-thread-", 0, 2, connections, duration, pool -> {
            pool.query();
            SignatureWorkloads.lightWork();
        });
    }

    /** The same JDBC code on a virtual thread per request, {@code concurrent} users at a time (@RunOnVirtualThread). */
    public long jdbcOnVirtualThreads(int concurrent, int connections, Duration duration) throws Exception {
        try (Pool pool = new Pool(databasePort(), connections);
             ExecutorService virtuals = Executors.newThreadPerTaskExecutor(
                     Thread.ofVirtual().name("quarkus-virtual-thread-", 0).factory())) {
            long end = System.nanoTime() + duration.toNanos();
            LongAdder requests = new LongAdder();
            List<Future<?>> users = new ArrayList<>();
            for (int i = 0; i < concurrent; i++) {
                users.add(virtuals.submit(() -> {
                    while (System.nanoTime() < end) {
                        virtuals.submit(() -> {
                            SignatureWorkloads.lightWork();
                            pool.query();
                        }).get();
                        requests.increment();
                    }
                    return null;
                }));
            }
            for (Future<?> user : users) {
                user.get();
            }
            return requests.sum();
        }
    }

    /** The reactive client: one event loop sends the queries and reads the replies without blocking. */
    public long reactive(int inFlight, Duration duration) throws Exception {
        return database.reactive(inFlight, duration);
    }

    /** {@code threads} platform threads named {@code names} + a number from {@code first}, each making requests. */
    private long onPlatformThreads(String names, int first, int threads, int connections, Duration duration,
                                   Consumer<Pool> request) throws Exception {
        try (Pool pool = new Pool(databasePort(), connections)) {
            long end = System.nanoTime() + duration.toNanos();
            LongAdder requests = new LongAdder();
            List<Thread> started = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                started.add(Thread.ofPlatform().name(names + (first + i)).start(() -> {
                    while (System.nanoTime() < end) {
                        request.accept(pool);
                        requests.increment();
                    }
                }));
            }
            for (Thread thread : started) {
                thread.join();
            }
            return requests.sum();
        }
    }

    @Override
    public void close() throws IOException {
        database.close();
    }

    /** Kept-alive connections to the database, handed out by the Agroal-framed pool. */
    private static final class Pool implements AutoCloseable {
        private final List<Socket> sockets = new ArrayList<>();
        private final ConnectionPool<Socket> pool;

        Pool(int port, int connections) throws IOException {
            for (int i = 0; i < connections; i++) {
                sockets.add(new Socket("127.0.0.1", port));
            }
            pool = new ConnectionPool<>(sockets);
        }

        /** One page query: a connection from the pool, the request written, the reply read blocking. */
        void query() {
            try {
                Socket connection = pool.getConnection();
                try {
                    connection.getOutputStream().write(1);
                    connection.getOutputStream().flush();
                    if (connection.getInputStream().read() < 0) {
                        throw new IOException("database stub closed the connection");
                    }
                } finally {
                    pool.returnConnection(connection);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() throws IOException {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }
}
