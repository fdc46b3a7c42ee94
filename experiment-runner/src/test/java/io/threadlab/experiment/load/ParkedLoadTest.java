package io.threadlab.experiment.load;

import com.sun.net.httpserver.HttpServer;
import io.threadlab.experiment.confine.ConfinementDetector;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.start.RunningJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real k6 against a stand-in service: an open model parks the closed load that ran before it (paused, nothing in
 * flight, its users kept), the next step at the same users resumes that same load (its CPU still read), and a step at
 * other users ends it; a load started without the latency histogram is not what a step reporting percentiles runs on;
 * a settle counts every user's answer from the load's last change (start, resume, or one the runner names); k6 runs
 * with the run's settings of its Go runtime.
 */
class ParkedLoadTest {

    private HttpServer server;
    private Loads loads;

    @AfterEach
    void stop() {
        if (loads != null) {
            loads.abort();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void anOpenModelParksTheClosedLoadAndTheNextStepAtItsUsersResumesIt(@TempDir Path out) throws Exception {
        assumeTrue(K6.obtainable(Path.of("../.tools")), "needs k6 on PATH, or Go to build it (go install go.k6.io/k6)");
        AtomicLong served = new AtomicLong();
        RunningJvm jvm = standIn(served);
        loads = new Loads(new LocalK6(K6.locate(Path.of("../.tools")), Path.of(".."),
                new ConfinementDetector("", "parked-load-test").detect(), Map.of()), out);

        LoadSession closed = loads.session(jvm, 5, "/api", 300, "closed", true);
        await(() -> closed.read().completed() > 50, "the closed load's first answers");

        K6Run open = loads.open(jvm, "/api", List.of(20), 2, 10, 120, "open");
        long sentWhileParked = closed.read().sent();
        assertThat(closed.read().inFlight()).isZero();
        await(() -> served.get() > sentWhileParked + 10, "the open model's answers");
        assertThat(closed.read().sent()).as("a parked load sends nothing").isEqualTo(sentWhileParked);
        assertThat(closed.isAlive()).isTrue();
        assertThat(open.finish(Duration.ofSeconds(60)).requests()).isPositive();

        LoadSession again = loads.session(jvm, 5, "/api", 300, "closed-again", true);
        assertThat(again).as("the same users resume the parked load, not a new k6").isSameAs(closed);
        assertThat(again.answeredAtChange()).as("emptied while parked, every user starts again: a settle counts its"
                + " answers from the resume").isEqualTo(sentWhileParked);
        await(() -> closed.read().sent() > sentWhileParked + 20, "the resumed load's requests");
        assertThat(loads.cpu(closed.pid()).usageNanos()).as("the resumed k6's CPU is read, though another k6 started"
                + " after it").isPositive();

        LoadSession other = loads.session(jvm, 3, "/api", 300, "other-users", true);
        assertThat(other).isNotSameAs(closed);
        assertThat(closed.isAlive()).as("another level drains and ends it").isFalse();
        assertThat(loads.end()).as("nothing left in flight").isZero();
        assertThat(loads.abandoned()).isZero();
    }

    @Test
    void aLoadWithoutTheHistogramCountsItsAnswersAndAStepThatNeedsPercentilesStartsOneWithIt(@TempDir Path out)
            throws Exception {
        assumeTrue(K6.obtainable(Path.of("../.tools")), "needs k6 on PATH, or Go to build it (go install go.k6.io/k6)");
        RunningJvm jvm = standIn(new AtomicLong());
        loads = new Loads(new LocalK6(K6.locate(Path.of("../.tools")), Path.of(".."),
                new ConfinementDetector("", "parked-load-test").detect(), Map.of("GOGC", "400", "GOMEMLIMIT",
                "1GiB")), out);

        LoadSession warmUp = loads.session(jvm, 5, "/api", 300, "warm-up", false);
        await(() -> warmUp.read().completed() > 20, "the load's first answers, without the histogram");
        String environ = Files.readString(Path.of("/proc", String.valueOf(warmUp.pid()), "environ"));
        assertThat(List.of(environ.split(String.valueOf('\0'))))
                .as("k6 runs with the run's settings of its Go runtime").contains("GOGC=400", "GOMEMLIMIT=1GiB");
        assertThat(warmUp.read().latency().total()).as("no histogram").isZero();
        assertThat(warmUp.read().latencyMsTotal()).as("the mean's sum is kept").isPositive();
        assertThat(loads.session(jvm, 5, "/api", 300, "calibration", false)).as("a step without percentiles goes on"
                + " with it").isSameAs(warmUp);

        LoadSession window = loads.session(jvm, 5, "/api", 300, "window", true);
        assertThat(window).as("a step that reports percentiles needs the histogram").isNotSameAs(warmUp);
        assertThat(warmUp.isAlive()).isFalse();
        assertThat(window.answeredAtChange()).as("a new load counts from its start").isZero();
        await(() -> window.read().latency().total() > 20, "answers in the histogram");
        loads.changed(); // the downstream's wait changed, say
        long atChange = window.answeredAtChange();
        assertThat(atChange).as("a change marks the answers so far: a settle waits for every user again").isPositive()
                .isLessThanOrEqualTo(window.read().completed());
        assertThat(loads.session(jvm, 5, "/api", 300, "calibration-after", false)).as("a load with the histogram"
                + " serves a step without percentiles").isSameAs(window);
        assertThat(loads.end()).isZero();
    }

    /** A service answering /api after 5 ms, counting its answers. */
    private RunningJvm standIn(AtomicLong served) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/api", exchange -> {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "{}".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream o = exchange.getResponseBody()) {
                o.write(body);
            }
            served.incrementAndGet();
        });
        server.start();
        int port = server.getAddress().getPort();
        ServiceProcess service = new ServiceProcess("stand-in", port) {
            @Override
            public long pid() {
                return -1;
            }

            @Override
            public boolean isAlive() {
                return true;
            }

            @Override
            protected String howItEnded() {
                return "";
            }

            @Override
            public String logTail(int lines) {
                return "";
            }

            @Override
            public String logLocation() {
                return "";
            }

            @Override
            public void close() {
            }
        };
        return new RunningJvm(new Jvm(Variant.REACTIVE, 1, port), service, "stand-in", null, System.nanoTime());
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 60 s for " + what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
