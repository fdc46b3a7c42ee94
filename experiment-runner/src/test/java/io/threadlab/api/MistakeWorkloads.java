package io.threadlab.api;

import io.quarkus.runtime.BlockingOperationNotAllowedException;
import org.hibernate.collection.spi.AbstractPersistentCollection;
import org.jboss.resteasy.reactive.server.core.RuntimeExceptionMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Array;
import java.net.Socket;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * In-process workloads with the signatures of the mistakes-service's mistakes, for recording at test time, against
 * the delay stub of {@link SignatureWorkloads}: the same threads, the same kinds of waits, the same code shapes,
 * without Quarkus. Each returns the requests it made, as {@link SignatureWorkloads}' do.
 */
public final class MistakeWorkloads {

    private final SignatureWorkloads signatures;

    public MistakeWorkloads(SignatureWorkloads signatures) {
        this.signatures = signatures;
    }

    /**
     * A blocking client on the event loop: two platform threads named like Vert.x's event loops, each sending its
     * requests over a kept-alive connection and blocking in the socket read until the reply comes.
     */
    public long blockingEventLoop(Duration duration) throws InterruptedException {
        return signatures.onConnectedThreads("vert.x-eventloop-thread-", 0, 2, duration, connection -> {
            LegacyClient.call(connection);
            SignatureWorkloads.lightWork();
        });
    }

    /**
     * Hibernate's N+1 (orm-n-plus-one) on workers: each request makes its page's call, then its mapping touches a lazy
     * collection per row of a page of 20, each fetched on first touch, as LazyPerRowResource's page is through
     * Hibernate (the stand-in's fetch is a statement's worth of CPU, its round trip left out).
     */
    public long lazyCollectionPerRow(int threads, Duration duration) throws InterruptedException {
        return signatures.onConnectedThreads("executor-thread-", 0, threads, duration, connection -> {
            LegacyClient.call(connection);
            LazyPage.map(20);
        });
    }

    /**
     * Hibernate ORM on the event loop (orm-on-event-loop): two threads named like Vert.x's event loops call a
     * transactional repository, which Quarkus refuses on an I/O thread at once, and map the refusal to the request's
     * 500, logging it as Quarkus REST does. No call is made downstream.
     */
    public long refusedOnEventLoop(Duration duration) throws InterruptedException {
        long end = System.nanoTime() + duration.toNanos();
        LongAdder requests = new LongAdder();
        List<Thread> loops = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            loops.add(Thread.ofPlatform().name("vert.x-eventloop-thread-" + i).start(() -> {
                while (System.nanoTime() < end) {
                    try {
                        TransactionalRepository.newestPage();
                    } catch (BlockingOperationNotAllowedException refused) {
                        RuntimeExceptionMapper.mapException(refused);
                    }
                    requests.increment();
                }
            }));
        }
        for (Thread loop : loops) {
            loop.join();
        }
        return requests.sum();
    }

    /** The page's mapping: each row's lazy collection touched, and so fetched, one at a time. */
    static final class LazyPage {
        static void map(int rows) {
            for (int row = 0; row < rows; row++) {
                new AbstractPersistentCollection(LazyPage::fetch).read();
            }
        }

        /** About half a millisecond: enough CPU in the fetches for the samples the rule asks for. */
        private static void fetch() {
            for (int i = 0; i < 10; i++) {
                SignatureWorkloads.lightWork();
            }
        }
    }

    /** A @Transactional repository, as Quarkus guards it: no JTA transaction may start on an I/O thread. */
    static final class TransactionalRepository {
        static void newestPage() {
            throw new BlockingOperationNotAllowedException("Cannot start a JTA transaction from the IO thread.");
        }
    }

    /**
     * A connection pool smaller than the worker pool: {@code threads} workers share {@code connections} kept-alive
     * connections, and wait for one as Apache's AbstractConnPool.getPoolEntryBlocking makes them wait, on a
     * condition of the pool's lock.
     */
    public long connectionPoolCap(int threads, int connections, Duration duration) throws Exception {
        try (ConnectionPool pool = new ConnectionPool(signatures.delayPort(), connections)) {
            long end = System.nanoTime() + duration.toNanos();
            LongAdder requests = new LongAdder();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                workers.add(Thread.ofPlatform().name("executor-thread-" + (i + 1)).start(() -> {
                    while (System.nanoTime() < end) {
                        SignatureWorkloads.handleRequest(() -> pool.call());
                        requests.increment();
                    }
                }));
            }
            for (Thread worker : workers) {
                worker.join();
            }
            return requests.sum();
        }
    }

    /**
     * A fan-out's replies on the event loop, as the Quarkus REST client delivers them: two platform threads named like
     * Vert.x's event loops, each making {@code calls} calls per request whose sending and reply are tasks of its own
     * queue. With {@code join}, each request then waits for its replies in CompletableFuture.get, as
     * /mistakes/fanout/blocking-join does: they cannot come while the loop waits, and each request ends at
     * {@code timeout} (that endpoint's 503). Without, the loop combines the replies and runs its queue: the reactive
     * variant's fan-out, which never waits.
     */
    public long fanOutOnEventLoop(int calls, boolean join, Duration timeout, Duration duration)
            throws InterruptedException {
        long end = System.nanoTime() + duration.toNanos();
        LongAdder requests = new LongAdder();
        List<Thread> loops = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            loops.add(Thread.ofPlatform().name("vert.x-eventloop-thread-" + i).start(() -> {
                Deque<Runnable> tasks = new ArrayDeque<>();
                while (System.nanoTime() < end) {
                    List<CompletableFuture<String>> replies = new ArrayList<>();
                    for (int c = 0; c < calls; c++) {
                        CompletableFuture<String> reply = new CompletableFuture<>();
                        tasks.add(() -> reply.complete("ok")); // the loop's own task: run once it is free
                        replies.add(reply);
                    }
                    if (join) {
                        JoiningLoop.join(replies, timeout);
                        requests.increment();
                    } else {
                        CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
                                .thenRun(requests::increment);
                    }
                    while (!tasks.isEmpty()) {
                        tasks.poll().run();
                    }
                }
            }));
        }
        for (Thread loop : loops) {
            loop.join();
        }
        return requests.sum();
    }

    /**
     * The imperative fan-out: {@code requests} requests at once on a pool of {@code workers} platform threads named
     * like Quarkus' workers, each submitting its {@code calls} blocking calls to the delay stub to that same pool and
     * waiting for them all, at most {@code timeout} (then its calls are cancelled, the imperative variant's 503).
     * With as many requests as workers, no worker is left for a call: the pool starves; with workers for every call,
     * the calls run.
     */
    public long fanOutOnWorkers(int workers, int requests, int calls, Duration timeout, Duration duration)
            throws Exception {
        int[] named = {0};
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> Thread.ofPlatform()
                .name("executor-thread-" + ++named[0]).unstarted(r));
        List<Socket> opened = java.util.Collections.synchronizedList(new ArrayList<>());
        ThreadLocal<Socket> connection = ThreadLocal.withInitial(() -> { // one kept-alive connection per worker
            try {
                Socket socket = new Socket("127.0.0.1", signatures.delayPort());
                opened.add(socket);
                return socket;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        long end = System.nanoTime() + duration.toNanos();
        LongAdder answered = new LongAdder();
        List<Future<?>> running = new ArrayList<>();
        try {
            for (int r = 0; r < requests; r++) {
                running.add(pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        List<CompletableFuture<Void>> replies = new ArrayList<>();
                        for (int c = 0; c < calls; c++) {
                            replies.add(CompletableFuture.runAsync(() -> LegacyClient.call(connection.get()), pool));
                        }
                        StarvingRequest.await(replies, timeout);
                        answered.increment();
                    }
                    return null;
                }));
            }
            for (Future<?> request : running) {
                request.get();
            }
        } finally {
            pool.shutdown();
            pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
            for (Socket socket : opened) {
                socket.close();
            }
        }
        return answered.sum();
    }

    /** The event loop's wait for its calls' replies, as BlockingJoinResource.join makes it. */
    static final class JoiningLoop {
        static void join(List<CompletableFuture<String>> replies, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            try {
                for (CompletableFuture<String> reply : replies) {
                    reply.get(Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
                }
            } catch (TimeoutException | ExecutionException e) {
                replies.forEach(reply -> reply.cancel(false));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The request's wait for its calls, as the imperative variant's FanoutResource.parallel makes it. */
    static final class StarvingRequest {
        static void await(List<CompletableFuture<Void>> replies, Duration timeout) throws InterruptedException {
            try {
                CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
                        .get(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                replies.forEach(reply -> reply.cancel(false)); // a call still queued is skipped when a worker takes it
            }
        }
    }

    /** About a millisecond of SHA-256 per request, on the event loop, as the reply arrives. */
    public long cpuOnEventLoop(int inFlight, Duration duration) throws Exception {
        return signatures.onEventLoop(inFlight, duration, CpuWork::hash);
    }

    /** About a millisecond of SHA-256 per request, on its virtual thread, before its call. */
    public long cpuOnVirtualThreads(int concurrent, Duration duration) throws Exception {
        return signatures.onVirtualThreads(concurrent, duration, loop -> {
            CpuWork.hash();
            loop.callAndWait();
        });
    }

    /**
     * Each request defines a fresh hidden copy of {@link ClassInitTemplate} on its virtual thread, whose static
     * initialiser waits the downstream's 10 ms: a virtual thread that blocks inside a class initialiser pins.
     */
    public long pinnedInClassInitialisers(int concurrent, Duration duration) throws Exception {
        byte[] template;
        try (InputStream bytes = MistakeWorkloads.class.getResourceAsStream("ClassInitTemplate.class")) {
            template = bytes.readAllBytes();
        }
        return signatures.onVirtualThreads(concurrent, duration, loop -> {
            try {
                MethodHandles.lookup().defineHiddenClass(template, true);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The downstream call made inside a synchronized method of an object of the request's own: no contention. */
    public long synchronizedCalls(int concurrent, Duration duration) throws Exception {
        return signatures.onVirtualThreads(concurrent, duration, loop -> new Ledger().record(loop));
    }

    /** Whether this JVM has the FFM API (JDK 22+), which {@link #nativeCallsOnVirtualThreads} needs. */
    public static boolean nativeCallsPossible() {
        return Runtime.version().feature() >= 22;
    }

    /**
     * Virtual threads that wait inside a native call, libc's usleep through the FFM API, {@code calls} times each,
     * for the downstream's 10 ms: one request a call.
     */
    public long nativeCallsOnVirtualThreads(int threads, int calls) throws Exception {
        try (ExecutorService virtuals = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("quarkus-virtual-thread-", 0).factory())) {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                running.add(virtuals.submit(() -> {
                    for (int c = 0; c < calls; c++) {
                        NativeWait.block(10_000);
                    }
                    return null;
                }));
            }
            for (Future<?> thread : running) {
                thread.get();
            }
        }
        return (long) threads * calls;
    }

    /** A legacy blocking HTTP client, reduced to its socket: the request out, then a read until the reply is in. */
    static final class LegacyClient {
        static void call(Socket connection) {
            try {
                connection.getOutputStream().write(1);
                connection.getOutputStream().flush();
                if (connection.getInputStream().read() < 0) {
                    throw new IOException("delay stub closed the connection");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A fixed set of kept-alive connections, leased and released around each call. */
    static final class ConnectionPool implements AutoCloseable {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition released = lock.newCondition();
        private final Deque<Socket> idle = new ArrayDeque<>();
        private final List<Socket> all = new ArrayList<>();

        ConnectionPool(int port, int size) throws IOException {
            for (int i = 0; i < size; i++) {
                all.add(new Socket("127.0.0.1", port));
            }
            idle.addAll(all);
        }

        void call() {
            Socket connection = lease();
            try {
                LegacyClient.call(connection);
            } finally {
                release(connection);
            }
        }

        private Socket lease() {
            lock.lock();
            try {
                while (idle.isEmpty()) {
                    released.awaitUninterruptibly();
                }
                return idle.pop();
            } finally {
                lock.unlock();
            }
        }

        private void release(Socket connection) {
            lock.lock();
            try {
                idle.push(connection);
                released.signal();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() throws IOException {
            for (Socket connection : all) {
                connection.close();
            }
        }
    }

    /** The CPU-heavy request code of the mistakes-service's CpuWork: SHA-256, 27 times over 64 KiB, about 1 ms. */
    static final class CpuWork {
        private static final byte[] BUFFER = new byte[64 * 1024];

        static void hash() {
            try {
                MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
                byte[] digest = new byte[0];
                for (int round = 0; round < 27; round++) {
                    sha256.update(digest);
                    sha256.update(BUFFER);
                    digest = sha256.digest();
                }
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** An object of one request: its synchronized method holds the object's monitor around the downstream call. */
    static final class Ledger {
        synchronized void record(SignatureWorkloads.EventLoop loop) {
            SignatureWorkloads.lightWork();
            loop.callAndWait();
        }
    }

    /**
     * libc's usleep through the FFM API, looked up by reflection: this code is compiled for JDK 21, where the API is
     * still a preview, and runs on the lab's JDK 25.
     */
    static final class NativeWait {
        private static final MethodHandle USLEEP = usleep();

        static void block(int micros) {
            try {
                int ignored = (int) USLEEP.invokeExact(micros);
            } catch (Throwable e) {
                throw new IllegalStateException("usleep failed", e);
            }
        }

        private static MethodHandle usleep() {
            try {
                Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
                Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
                Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");
                Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
                Object linker = linkerType.getMethod("nativeLinker").invoke(null);
                Object lookup = linkerType.getMethod("defaultLookup").invoke(linker);
                Object symbol = ((Optional<?>) Class.forName("java.lang.foreign.SymbolLookup")
                        .getMethod("find", String.class).invoke(lookup, "usleep")).orElseThrow();
                Object javaInt = Class.forName("java.lang.foreign.ValueLayout").getField("JAVA_INT").get(null);
                Object arguments = Array.newInstance(layoutType, 1);
                Array.set(arguments, 0, javaInt);
                Object descriptor = descriptorType.getMethod("of", layoutType, arguments.getClass())
                        .invoke(null, javaInt, arguments);
                return (MethodHandle) linkerType.getMethod("downcallHandle",
                                Class.forName("java.lang.foreign.MemorySegment"), descriptorType,
                                Array.newInstance(optionType, 0).getClass())
                        .invoke(linker, symbol, descriptor, Array.newInstance(optionType, 0));
            } catch (ReflectiveOperationException e) {
                return null; // before JDK 22: nativeCallsPossible() says so, and the test is skipped
            }
        }
    }
}
