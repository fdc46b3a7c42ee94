package io.threadlab.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Small in-process workloads with the four variants' thread signatures, for recording at test time. They live in
 * {@code io.threadlab.api} because that is how the analysis recognises request code. A 10 ms "delay service" on a
 * loopback port answers one byte after 10 ms, in a process of its own ({@link DelayStub}).
 * <p>
 * Request code on worker threads does about a millisecond of CPU per request; on the event loop and on virtual
 * threads, a tenth of that or less, as in the real variants, whose request code costs microseconds there: a
 * millisecond of CPU per request on those threads is a mistake of its own ({@link MistakeWorkloads}). Each workload
 * returns the requests it made, one downstream call each, for the CPU per request that the runner's results.json
 * would have.
 */
public final class SignatureWorkloads implements AutoCloseable {

    /** What the delay stub waits before it answers: the recorded windows' downstream delay. */
    public static final int DELAY_MS = 10;

    private final Process stub;
    private final int port;

    public SignatureWorkloads() throws IOException {
        compileTheWork();
        stub = startStub();
        port = Integer.parseInt(stub.inputReader().readLine().trim());
    }

    /** {@link DelayStub} on this JVM's java, small and quick to start: it answers bytes, nothing is measured there. */
    private static Process startStub() throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow(
                () -> new IOException("this JVM's java command is unknown: the delay stub cannot be started"));
        String classes;
        try {
            classes = Path.of(DelayStub.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        return new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-cp", classes,
                DelayStub.class.getName(), String.valueOf(DELAY_MS))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    public int delayPort() {
        return port;
    }

    /** Imperative: platform threads named like Quarkus' worker pool, each blocking in a socket read per request. */
    public long imperative(int threads, Duration duration) throws InterruptedException {
        return onConnectedThreads("executor-thread-", 1, threads, duration,
                socket -> handleRequest(() -> blockingCall(socket)));
    }

    /**
     * {@code threads} platform threads named {@code prefix} and their number, from {@code first}, each making requests
     * over a kept-alive connection to the delay stub until {@code duration} is up. Returns the requests made.
     */
    long onConnectedThreads(String prefix, int first, int threads, Duration duration, Consumer<Socket> request)
            throws InterruptedException {
        long end = System.nanoTime() + duration.toNanos();
        LongAdder requests = new LongAdder();
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            started.add(Thread.ofPlatform().name(prefix + (first + i)).start(() -> {
                try (Socket socket = new Socket("127.0.0.1", delayPort())) {
                    while (System.nanoTime() < end) {
                        request.accept(socket);
                        requests.increment();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
        }
        for (Thread thread : started) {
            thread.join();
        }
        return requests.sum();
    }

    /**
     * Imperative on the reactive stack (imperative-rest): platform threads named like Quarkus' worker pool run the
     * request code and park on a future while the event loop does the socket I/O and completes it.
     */
    public long imperativeRest(int threads, Duration duration) throws Exception {
        try (EventLoop loop = new EventLoop(delayPort())) {
            long end = System.nanoTime() + duration.toNanos();
            LongAdder requests = new LongAdder();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                workers.add(Thread.ofPlatform().name("executor-thread-" + (i + 1)).start(() -> {
                    while (System.nanoTime() < end) {
                        handleRequest(loop::callAndWait);
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

    /** Reactive: one event loop does all socket I/O without blocking; request code runs in its callbacks. */
    public long reactive(int inFlight, Duration duration) throws Exception {
        return onEventLoop(inFlight, duration, SignatureWorkloads::lightWork);
    }

    /**
     * Requests on one event loop, {@code inFlight} at a time; {@code work} runs on the loop as each reply arrives.
     * Returns the requests made.
     */
    long onEventLoop(int inFlight, Duration duration, Runnable work) throws Exception {
        try (EventLoop loop = new EventLoop(delayPort())) {
            long end = System.nanoTime() + duration.toNanos();
            CompletableFuture<Void> done = new CompletableFuture<>();
            int[] outstanding = {0};
            long[] replies = {0}; // on the loop only; read after done, which the loop completes
            Consumer<Void>[] next = new Consumer[1];
            next[0] = ignored -> {
                work.run();
                replies[0]++;
                outstanding[0]--;
                if (System.nanoTime() < end) {
                    outstanding[0]++;
                    loop.call(next[0]);
                } else if (outstanding[0] == 0) {
                    done.complete(null);
                }
            };
            loop.execute(() -> {
                for (int i = 0; i < inFlight; i++) {
                    outstanding[0]++;
                    loop.call(next[0]);
                }
            });
            done.get(duration.toSeconds() + 10, TimeUnit.SECONDS);
            return replies[0];
        }
    }

    /** Virtual threads: one per request, each waiting (unmounted) for the event loop to bring the reply. */
    public long virtualThreads(int concurrent, Duration duration) throws Exception {
        return onVirtualThreads(concurrent, duration, loop -> {
            lightWork();
            loop.callAndWait();
        });
    }

    /**
     * One request at a time per user, each on a new virtual thread, as {@code @RunOnVirtualThread} does. Returns the
     * requests made.
     */
    long onVirtualThreads(int concurrent, Duration duration, Consumer<EventLoop> request) throws Exception {
        try (EventLoop loop = new EventLoop(delayPort());
             ExecutorService virtuals = Executors.newThreadPerTaskExecutor(
                     Thread.ofVirtual().name("quarkus-virtual-thread-", 0).factory())) {
            long end = System.nanoTime() + duration.toNanos();
            LongAdder requests = new LongAdder();
            List<java.util.concurrent.Future<?>> users = new ArrayList<>();
            for (int i = 0; i < concurrent; i++) {
                users.add(virtuals.submit(() -> {
                    while (System.nanoTime() < end) {
                        virtuals.submit(() -> request.accept(loop)).get();
                        requests.increment();
                    }
                    return null;
                }));
            }
            for (var user : users) {
                user.get();
            }
            return requests.sum();
        }
    }

    /** A virtual thread that blocks inside a class initializer: still pins its carrier on JDK 25. */
    public void pinOnce() throws InterruptedException {
        Thread.ofVirtual().name("quarkus-virtual-thread-pinned").start(PinsWhileInitialising::touch).join();
    }

    static final class PinsWhileInitialising {
        static {
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
        }
    }

    /** "Request code" on workers: CPU work around the downstream call, so that execution samples land here. */
    static void handleRequest(Runnable downstream) {
        busy(500_000);
        downstream.run();
        busy(500_000);
    }

    /** Request code's own CPU on the event loop and on virtual threads: a tenth of the workers'. */
    static void lightWork() {
        busy(50_000);
    }

    private static long sink;

    /**
     * Runs the request code's work until HotSpot has compiled it, as the lab's warm-up does for the variants' code
     * before anything is recorded. Once, {@link #lightWork} cost 0.71 ms a call in a recording, above the analysis'
     * 0.3 ms line, and the analysis rightly called that heavy request code on the event loop: a loop of 50,000
     * rotations costs about 0.05 ms compiled, ten times that and more before it is.
     */
    private static void compileTheWork() {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int compiled = 0;
        while (compiled < 50 && System.nanoTime() < giveUp) {
            long start = System.nanoTime();
            lightWork();
            compiled = System.nanoTime() - start < TimeUnit.MICROSECONDS.toNanos(100) ? compiled + 1 : 0;
        }
        if (compiled < 50) {
            // not a failure of its own (a busy machine can keep a compiled call over 100 µs), but a CPU rule that
            // then calls light request code heavy should be read with it
            System.err.println("SignatureWorkloads: the light request code still took over 100 µs a call after 20 s"
                    + " of warming up: it may not be compiled, and the recordings' light CPU may read as heavy");
        }
    }

    private static void busy(int iterations) {
        long x = 0;
        for (int i = 0; i < iterations; i++) {
            x += Long.rotateLeft(x ^ i, 7);
        }
        sink += x;
    }

    private static void blockingCall(Socket socket) {
        try {
            socket.getOutputStream().write(1);
            socket.getOutputStream().flush();
            if (socket.getInputStream().read() < 0) {
                throw new IOException("delay stub closed the connection");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes the stub's standard input, on which it ends; forcibly if it has not within five seconds. */
    @Override
    public void close() throws IOException {
        stub.getOutputStream().close();
        try {
            if (!stub.waitFor(5, TimeUnit.SECONDS)) {
                stub.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            stub.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** A one-thread NIO loop named like Vert.x's: writes a byte per call, reads the reply when it is ready. */
    static final class EventLoop implements AutoCloseable {
        private final int port;
        private final Selector selector = Selector.open();
        private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        private final Queue<SocketChannel> idle = new ArrayDeque<>();
        private final Thread thread;
        private volatile boolean running = true;

        EventLoop(int port) throws IOException {
            this.port = port;
            this.thread = Thread.ofPlatform().name("vert.x-eventloop-thread-0").start(this::loop);
        }

        void execute(Runnable task) {
            tasks.add(task);
            selector.wakeup();
        }

        /** On the loop: send one request; {@code reply} runs on the loop when the answer arrives. */
        void call(Consumer<Void> reply) {
            try {
                SocketChannel channel = idle.poll();
                if (channel == null) {
                    channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                    channel.configureBlocking(false);
                }
                channel.write(ByteBuffer.wrap(new byte[] {1}));
                SelectionKey key = channel.keyFor(selector);
                if (key == null) {
                    channel.register(selector, SelectionKey.OP_READ, reply);
                } else {
                    key.attach(reply);
                    key.interestOps(SelectionKey.OP_READ);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** From any thread: call and wait for the reply. */
        void callAndWait() {
            CompletableFuture<Void> reply = new CompletableFuture<>();
            execute(() -> call(reply::complete));
            reply.join();
        }

        @SuppressWarnings("unchecked")
        private void loop() {
            ByteBuffer buffer = ByteBuffer.allocate(16);
            while (running) {
                try {
                    selector.select(100);
                    for (Runnable task; (task = tasks.poll()) != null; ) {
                        task.run();
                    }
                    for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                        SelectionKey key = it.next();
                        it.remove();
                        SocketChannel channel = (SocketChannel) key.channel();
                        buffer.clear();
                        if (channel.read(buffer) > 0) {
                            key.interestOps(0);
                            idle.add(channel);
                            ((Consumer<Void>) key.attachment()).accept(null);
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        @Override
        public void close() throws IOException, InterruptedException {
            running = false;
            selector.wakeup();
            thread.join(5_000);
            for (SocketChannel channel : idle) {
                channel.close();
            }
            selector.close();
        }
    }
}
