package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.process.Exchange;
import io.threadlab.experiment.process.ServiceUnresponsive;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.testing.StallingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A run never hangs: a step whose exchange with a service stalls mid-body (headers sent, the body never finished, the
 * exchange's own deadline far away, as a scrape's of minutes would be) is interrupted at the step's ceiling, ends as
 * a named timeout of that step, and the next step runs. The ceiling is given in milliseconds ({@link
 * StepLoop#perform(Step, long, long)}), so the test needs no step of minutes; its assertions are about what happened
 * (which step timed out, why, what ran next), and the 30 s only guard against a hang.
 */
class StepLoopTest {

    private static final Duration HANG = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Jvm JVM = new Jvm(Variant.REACTIVE, 1, 8082);

    @TempDir
    Path dir;

    /** Calls the server for each step: the first window's path stalls, any other is answered. */
    private static final class CallingPerformer implements StepLoop.Performer {
        private final Map<Step, URI> calls;
        final List<String> answers = new ArrayList<>();
        final List<Step> timedOut = new ArrayList<>();
        final List<String> reasons = new ArrayList<>();

        CallingPerformer(Map<Step, URI> calls) {
            this.calls = calls;
        }

        @Override
        public void perform(Step step) {
            try {
                answers.add(Exchange.send(HTTP, HttpRequest.newBuilder(calls.get(step)).build(),
                        HttpResponse.BodyHandlers.ofString(), Duration.ofMinutes(10)).body());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void timedOut(Step step, String why) {
            timedOut.add(step);
            reasons.add(why);
        }
    }

    private static Step.Measure window(int users) {
        return new Step.Measure(new Window(JVM, Point.of(Axis.DELAY_MS, 10).with(Axis.USERS, users),
                new Window.Closed(3, 40, 10), false, 1));
    }

    @Test
    void aStepThatStallsInItsExchangeEndsAsANamedTimeoutAndTheNextStepRuns() throws Exception {
        Step stalls = window(100);
        Step next = window(500);
        Manifest manifest = new Manifest(dir);
        try (StallingServer server = new StallingServer()) {
            CallingPerformer performer = new CallingPerformer(Map.of(stalls, server.uri(StallingServer.STALL),
                    next, server.uri("/q/metrics")));
            StepLoop loop = new StepLoop(performer, manifest, new Console());
            assertTimeoutPreemptively(HANG, () -> {
                loop.perform(stalls, System.nanoTime(), 1_000);
                loop.perform(next, System.nanoTime(), HANG.toMillis());
            });

            assertThat(server.sentHeadersAndPartOfTheBody()).as("it stalled mid-body, not before").isTrue();
            assertThat(performer.timedOut).containsExactly(stalls);
            assertThat(performer.reasons).singleElement().asString()
                    .startsWith("timed out: still running after its ceiling of 1 s")
                    .contains("interrupted while waiting for GET " + server.uri(StallingServer.STALL));
            assertThat(performer.answers).as("the next step ran, and was not interrupted").containsExactly("ok");
        }
        RunManifest asRun = manifest.snapshot();
        assertThat(asRun.scheduleAsRun()).extracting(RunManifest.StepAsRun::what)
                .containsExactly(stalls.describe(), next.describe());
        assertThat(asRun.scheduleAsRun().get(0).outcome()).startsWith("timed out:");
        assertThat(asRun.scheduleAsRun().get(1).outcome()).isNull();
        assertThat(asRun.warnings()).singleElement().asString()
                .startsWith("reactive-10ms-closed-100-1 on reactive (JVM 1): timed out:");
    }

    @Test
    void aStepThatFailsBeforeItsCeilingIsAFailureNotATimeout() throws Exception {
        Manifest manifest = new Manifest(dir);
        List<Step> timedOut = new ArrayList<>();
        StepLoop loop = new StepLoop(new StepLoop.Performer() {
            @Override
            public void perform(Step step) {
                throw new IllegalStateException("reactive-service died during the run");
            }

            @Override
            public void timedOut(Step step, String why) {
                timedOut.add(step);
            }
        }, manifest, new Console());
        assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> loop.perform(window(100), System.nanoTime(),
                HANG.toMillis())).isInstanceOf(IllegalStateException.class).hasMessage("reactive-service died during"
                + " the run"));
        assertThat(timedOut).isEmpty();
        assertThat(manifest.snapshot().warnings()).isEmpty();
    }

    /**
     * A service that is alive but gives no whole answer within the exchange's own deadline (a mistake whose event
     * loops are blocked serves nothing, its /lab/runtime and metrics included: the fan-out mistakes' run ended there,
     * 2026-11-26) loses what the step was to measure, not the run: recovered as a timeout is, and named so.
     */
    @Test
    void aServiceThatStopsAnsweringLosesItsStepNotTheRun() throws Exception {
        Manifest manifest = new Manifest(dir);
        List<String> reasons = new ArrayList<>();
        StepLoop loop = new StepLoop(new StepLoop.Performer() {
            @Override
            public void perform(Step step) {
                throw new ServiceUnresponsive("mistakes-service did not answer GET /lab/runtime: no whole"
                        + " answer within 120000 ms", new IOException("no whole answer"));
            }

            @Override
            public void timedOut(Step step, String why) {
                reasons.add(why);
            }
        }, manifest, new Console());
        assertTimeoutPreemptively(HANG, () -> loop.perform(window(100), System.nanoTime(), HANG.toMillis()));
        assertThat(reasons).containsExactly("no answer: mistakes-service did not answer GET"
                + " /lab/runtime: no whole answer within 120000 ms");
        assertThat(manifest.snapshot().scheduleAsRun().getFirst().outcome()).startsWith("no answer: ");
        assertThat(manifest.snapshot().warnings()).singleElement().asString().contains("no answer: mistakes-service");
    }

    @Test
    void anInterruptThatAStepKeptIsClearedBeforeTheNextStep() throws Exception {
        Step keeps = window(100);
        Step next = window(500);
        try (StallingServer server = new StallingServer()) {
            List<String> answers = new ArrayList<>();
            StepLoop loop = new StepLoop(new StepLoop.Performer() {
                @Override
                public void perform(Step step) {
                    if (step.equals(keeps)) { // waits for the watchdog, then returns with the interrupt still set
                        try {
                            Thread.sleep(HANG.multipliedBy(2));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return;
                    }
                    try {
                        answers.add(Exchange.send(HTTP, HttpRequest.newBuilder(server.uri("/q/metrics")).build(),
                                HttpResponse.BodyHandlers.ofString(), Duration.ofMinutes(10)).body());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void timedOut(Step step, String why) {
                }
            }, new Manifest(dir), new Console());
            assertTimeoutPreemptively(HANG, () -> {
                loop.perform(keeps, System.nanoTime(), 500);
                // an interrupt left set would end this exchange at once, as StepInterrupted
                loop.perform(next, System.nanoTime(), HANG.toMillis());
            });
            assertThat(answers).containsExactly("ok");
        }
    }
}
