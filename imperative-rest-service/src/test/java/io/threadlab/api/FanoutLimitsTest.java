package io.threadlab.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The trap of FanoutResource, shown with 4 workers: a parallel fan-out request holds its worker while its calls need
 * workers of the same pool. Fewer such requests at once than workers are all answered, their calls sharing the
 * workers left. As many as the workers, and every worker is a request waiting for calls queued behind it: nothing
 * moves until the requests' bounded wait runs out, and they are answered 503, not left hanging; then the pool serves
 * again.
 */
@QuarkusTest
@TestProfile(FourWorkers.class)
@QuarkusTestResource(DelayServiceStub.class)
class FanoutLimitsTest {

    static final int WORKERS = FourWorkers.WORKERS;
    /** Each request's calls: fewer than the workers, so that one request alone could never starve the pool. */
    static final int CALLS = 3;

    @DelayServiceStub.InjectDelayService
    WireMockServer delayService;

    @TestHTTPResource("/api/fanout")
    URI fanout;

    @BeforeEach
    void answerNormally() {
        DelayServiceStub.answerNormally(delayService);
    }

    @Test
    void fewerFanOutRequestsAtOnceThanWorkersAreAllAnswered() throws Exception {
        for (HttpResponse<String> response : answers(send(WORKERS - 1))) {
            assertEquals(200, response.statusCode(), response.body());
        }
    }

    @Test
    void asManyFanOutRequestsAtOnceAsWorkersStarveThePoolUntilTheirWaitRunsOut() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> sent = send(2 * WORKERS);
        // The signature: every worker is a request waiting for its own calls, and stays so.
        Set<String> waiting = everyWorkerWaitingForItsCalls();
        Thread.sleep(500); // fifty times a call's 10 ms: nothing moves
        assertEquals(waiting, waitingForCalls(), "the workers waiting for their calls");
        List<HttpResponse<String>> answers = answers(sent);
        List<Integer> statuses = answers.stream().map(HttpResponse::statusCode).toList();
        assertTrue(statuses.contains(503), "no request was answered 503: " + statuses);
        for (HttpResponse<String> response : answers) {
            assertTrue(response.statusCode() == 200 || response.statusCode() == 503, response.body());
            if (response.statusCode() == 503) {
                assertTrue(response.body().startsWith("{\"error\":\"the fan-out's calls waited for a worker\","
                        + "\"cause\":\"java.util.concurrent.TimeoutException: "), response.body());
                assertTrue(response.body().contains("calls unfinished after 3000 ms"), response.body());
            }
        }
        // The starved requests gave their workers back: the pool serves again.
        given().queryParam("n", CALLS).when().get("/api/fanout").then().statusCode(200);
    }

    private List<CompletableFuture<HttpResponse<String>>> send(int requests) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(fanout + "?n=" + CALLS + "&mode=parallel")).build();
        return IntStream.range(0, requests)
                .mapToObj(i -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString()))
                .toList();
    }

    /** Every request is answered, none hangs. */
    private static List<HttpResponse<String>> answers(List<CompletableFuture<HttpResponse<String>>> sent)
            throws Exception {
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> request : sent) {
            answers.add(request.get(30, TimeUnit.SECONDS));
        }
        return answers;
    }

    /** Waits until all the pool's threads wait for their calls, the same ones in two looks 200 ms apart. */
    private static Set<String> everyWorkerWaitingForItsCalls() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Set<String> before = Set.of();
        while (System.nanoTime() < deadline) {
            Set<String> now = waitingForCalls();
            if (now.size() == WORKERS && now.equals(before)) {
                return now;
            }
            before = now;
            Thread.sleep(200);
        }
        return fail("the workers never all waited for their calls: " + before);
    }

    /** The worker threads inside FanoutResource, parked in CompletableFuture.get. */
    private static Set<String> waitingForCalls() {
        Set<String> names = new TreeSet<>();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (thread.getName().startsWith("executor-thread-") && Arrays.stream(stack)
                    .anyMatch(f -> f.getClassName().equals(CompletableFuture.class.getName())
                            && f.getMethodName().equals("get"))
                    && Arrays.stream(stack).anyMatch(f -> f.getClassName().equals(FanoutResource.class.getName()))) {
                names.add(thread.getName());
            }
        });
        return names;
    }
}
