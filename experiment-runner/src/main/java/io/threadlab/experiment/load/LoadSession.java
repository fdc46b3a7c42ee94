package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.process.ServiceUnresponsive;
import io.threadlab.experiment.start.RunningJvm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One closed-model load at a fixed number of users against one JVM, kept running across everything measured at that
 * level in a row: the load that settles the JVM, the window, its recorded twin. Windows are read from k6's live
 * counters ({@link LoadCounters}), so the users and their connections stay the same from the settle into the window,
 * and no request is aborted between them. It ends by {@link #drain}: k6 is paused, every request in flight is
 * answered, and only then is k6 stopped, so a JVM is never left serving requests whose caller has gone. It may also
 * be {@link #park}ed (paused and emptied the same way, k6 left running) while another load runs, and resumed after:
 * starting 3,000 users again costs k6 15-20 s here, most of it their live latency histogram (k6/lib.js).
 */
public final class LoadSession implements AutoCloseable {

    /** k6 starts its users one after another: about 4 s for 3,000 here. */
    private static Duration startup(int users) {
        return Duration.ofSeconds(30 + users / 100);
    }

    private final RunningJvm jvm;
    private final int users;
    private final String path;
    private final boolean percentiles;
    private final K6Run process;
    private final K6Control control;
    private long lastInFlight;
    private boolean parked;
    /** Requests answered when what the load meets last changed: k6 started or resumed, or the runner said so. */
    private long answeredAtChange;

    private LoadSession(RunningJvm jvm, int users, String path, boolean percentiles, K6Run process,
                        K6Control control) {
        this.jvm = jvm;
        this.users = users;
        this.path = path;
        this.percentiles = percentiles;
        this.process = process;
        this.control = control;
    }

    /** Starts k6 and returns once its API answers and its first requests were sent. */
    static LoadSession start(RunningJvm jvm, int users, String path, boolean percentiles, String apiAddress,
                             java.util.function.IntFunction<K6Run> k6OnPort) {
        int port = freePort();
        K6Run process = k6OnPort.apply(port);
        LoadSession session = new LoadSession(jvm, users, path, percentiles, process, new K6Control(apiAddress,
                port));
        try {
            session.awaitFirstRequests(startup(users));
            return session;
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
    }

    public RunningJvm jvm() {
        return jvm;
    }

    public int users() {
        return users;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** k6's CPU counters now, wherever it runs. */
    CpuReading cpu() {
        return process.cpu();
    }

    /**
     * Requests answered when what this load meets last changed (it started or resumed, the downstream's wait or the
     * CPUs it runs on changed, a recording started): a settle waits until every user has been answered since then.
     */
    long answeredAtChange() {
        return answeredAtChange;
    }

    /** What the load meets changes from now on: every user must be answered again before the load is steady. */
    void changed() {
        answeredAtChange = read().completed();
    }

    /** Requests in flight at the last reading. */
    long lastInFlight() {
        return lastInFlight;
    }

    /** Whether this load is the one a step wants: the same JVM, users and path, with the histogram if it needs it. */
    public boolean drives(RunningJvm other, int otherUsers, String otherPath, boolean needsPercentiles) {
        return jvm == other && users == otherUsers && path.equals(otherPath) && (percentiles || !needsPercentiles)
                && process.isAlive();
    }

    /**
     * k6's counters now: with the histogram every metric at once (its hundreds of buckets must be read together), else
     * only the load's own counters, one by one. A load without the histogram is the long one (a warm-up), and
     * reading every metric of it makes k6 sort every latency it has seen.
     *
     * @param order the one-by-one order: {@link LoadCounters#IN_FLIGHT_AT_LEAST} for a window's edge,
     *              {@link LoadCounters#IN_FLIGHT_AT_MOST} to wait for a load to empty
     */
    private Map<String, Double> counters(List<String> order) throws IOException {
        return percentiles ? control.counters() : control.counters(order);
    }

    /** The counters now. */
    public LoadCounters read() {
        requireAlive();
        try {
            // stamped when k6 answered, not when it was asked: behind a busy k6 its API can take seconds to answer,
            // and the counters are those of the answer
            Map<String, Double> values = counters(LoadCounters.IN_FLIGHT_AT_LEAST);
            LoadCounters counters = LoadCounters.of(System.nanoTime(), values);
            lastInFlight = counters.inFlight();
            return counters;
        } catch (IOException e) {
            // k6 alive but not answering: what this step was to measure is lost, not the run (StepLoop)
            throw new ServiceUnresponsive("k6 did not give its counters (" + process.log() + "): " + e.getMessage(),
                    e);
        }
    }

    /**
     * Pauses k6, waits until every request sent has been answered (or failed), then stops k6.
     *
     * @return the requests still in flight when {@code patience} ran out (0 when the drain was clean)
     */
    public long drain(Duration patience) {
        if (!process.isAlive()) {
            return 0;
        }
        long inFlight = park(patience);
        return stop() ? inFlight : -1;
    }

    /**
     * Stops k6 whatever it has in flight, and waits for it to exit.
     *
     * @return false when k6 did not answer the stop (it is stopped when the process ends all the same)
     */
    boolean stop() {
        boolean answered = true;
        try {
            control.stop();
        } catch (IOException e) {
            answered = false;
        }
        process.awaitExit(Duration.ofSeconds(20));
        return answered;
    }

    /**
     * Pauses k6 and waits until every request sent has been answered (or failed), leaving k6 running, paused, with its
     * users and their connections: no request of it is in flight while another load runs.
     *
     * @return the requests still in flight when {@code patience} ran out (0 when it emptied), -1 when k6 stopped
     *         answering
     */
    public long park(Duration patience) {
        parked = true;
        try {
            control.pause();
            long inFlight;
            long deadline = System.nanoTime() + patience.toNanos();
            do {
                sleep(100);
                inFlight = LoadCounters.of(System.nanoTime(), counters(LoadCounters.IN_FLIGHT_AT_MOST)).inFlight();
            } while (inFlight > 0 && System.nanoTime() < deadline && process.isAlive());
            return inFlight;
        } catch (IOException e) {
            return -1;
        }
    }

    /** Lets a parked load's users send again; nothing when it was not parked. */
    public void resume() {
        if (!parked) {
            return;
        }
        try {
            answeredAtChange = read().completed(); // emptied while parked: every user starts again
            control.resume();
            parked = false;
        } catch (IOException e) {
            throw new ServiceUnresponsive("k6 did not resume its users (" + process.log() + "): " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        process.close();
    }

    private void awaitFirstRequests(Duration startup) {
        long deadline = System.nanoTime() + startup.toNanos();
        while (System.nanoTime() < deadline) {
            requireAlive();
            if (control.listening()) {
                try {
                    if (LoadCounters.of(System.nanoTime(), counters(LoadCounters.IN_FLIGHT_AT_LEAST)).sent() > 0) {
                        return;
                    }
                } catch (IOException e) {
                    // not ready yet
                }
            }
            sleep(100);
        }
        throw new IllegalStateException("k6 sent no request within " + startup.toSeconds() + " s; see " + process.log());
    }

    private void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException("k6 stopped while loading " + jvm.jvm() + " at " + users + " users (exit "
                    + process.exitValue() + "); see " + process.log());
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for k6's API: " + e.getMessage(), e);
        }
    }

    private static void sleep(long ms) {
        Pause.millis(ms);
    }
}
