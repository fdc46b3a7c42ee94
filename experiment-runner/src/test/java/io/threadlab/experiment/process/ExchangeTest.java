package io.threadlab.experiment.process;

import io.threadlab.experiment.testing.StallingServer;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The deadline over a whole exchange, against a real server that sends its headers and part of its body and then
 * stalls: the JDK client's own request timeout ends when the headers arrive, so only Exchange's deadline can end this
 * one. The assertions are about what happened (which error, naming what); the 30 s only guards against a hang.
 */
class ExchangeTest {

    private static final Duration HANG = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aBodyThatStallsAfterItsHeadersEndsAtTheDeadlineNamingTheUrlAndTheDeadline() throws Exception {
        try (StallingServer server = new StallingServer()) {
            HttpRequest request = HttpRequest.newBuilder(server.uri(StallingServer.STALL)).build();
            assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> Exchange.send(HTTP, request,
                    HttpResponse.BodyHandlers.ofString(), Duration.ofMillis(500)))
                    .isInstanceOf(HttpTimeoutException.class)
                    .hasMessage("GET " + server.uri(StallingServer.STALL) + ": no whole answer within 500 ms"));
            assertThat(server.sentHeadersAndPartOfTheBody()).as("the stall came after the headers").isTrue();
        }
    }

    @Test
    void aWholeAnswerWithinTheDeadlineIsReturned() throws Exception {
        try (StallingServer server = new StallingServer()) {
            HttpResponse<String> response = assertTimeoutPreemptively(HANG, () -> Exchange.send(HTTP,
                    HttpRequest.newBuilder(server.uri("/q/metrics")).build(), HttpResponse.BodyHandlers.ofString(),
                    Duration.ofSeconds(20)));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("ok");
            assertThat(server.sentHeadersAndPartOfTheBody()).isFalse();
        }
    }

    @Test
    void inTheBackgroundABodyThatStallsEndsTheFutureAtTheDeadlineAndAWholeAnswerCompletesIt() throws Exception {
        try (StallingServer server = new StallingServer()) {
            var stalled = Exchange.sendInBackground(HTTP, HttpRequest.newBuilder(server.uri(StallingServer.STALL))
                    .build(), HttpResponse.BodyHandlers.discarding(), Duration.ofMillis(500));
            var whole = Exchange.sendInBackground(HTTP, HttpRequest.newBuilder(server.uri("/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString(), Duration.ofSeconds(20));
            assertTimeoutPreemptively(HANG, () -> {
                assertThat(whole.get().body()).isEqualTo("ok");
                assertThatThrownBy(stalled::get).hasCauseInstanceOf(HttpTimeoutException.class)
                        .hasMessageContaining("GET " + server.uri(StallingServer.STALL)
                                + ": no whole answer within 500 ms");
            });
            assertThat(server.sentHeadersAndPartOfTheBody()).as("the stall came after the headers").isTrue();
        }
    }

    @Test
    void anInterruptWhileWaitingEndsTheExchangeAsAnInterruptedStep() throws Exception {
        try (StallingServer server = new StallingServer()) {
            HttpRequest request = HttpRequest.newBuilder(server.uri(StallingServer.STALL)).build();
            assertTimeoutPreemptively(HANG, () -> {
                Thread.currentThread().interrupt(); // as the watchdog does; get() sees it at once
                assertThatThrownBy(() -> Exchange.send(HTTP, request, HttpResponse.BodyHandlers.ofString(),
                        Duration.ofMinutes(10)))
                        .isInstanceOf(StepInterrupted.class)
                        .hasMessage("interrupted while waiting for GET " + server.uri(StallingServer.STALL));
            });
        }
    }
}
