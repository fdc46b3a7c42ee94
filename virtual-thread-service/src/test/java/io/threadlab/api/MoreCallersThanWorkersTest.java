package io.threadlab.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * More concurrent callers than worker threads must queue, never hang: a call may not need a second worker to finish
 * (with Quarkus 3.27's own registration of Micrometer's client timer, the Quarkus REST client did, and a blocking
 * caller deadlocked for good once every worker waited for a reply).
 */
@QuarkusTest
@TestProfile(FourWorkers.class)
@QuarkusTestResource(DelayServiceStub.class)
class MoreCallersThanWorkersTest {

    @DelayServiceStub.InjectDelayService
    WireMockServer delayService;

    @TestHTTPResource("/api")
    URI api;

    @Test
    void twelveCallersOnFourWorkersAreAllAnswered() throws Exception {
        delayService.stubFor(get(urlPathEqualTo("/delay")).willReturn(aResponse().withFixedDelay(50)
                .withHeader("Content-Type", "application/json").withBody("{\"message\":\"delayed 50 ms\"}")));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<String>>> calls = IntStream.range(0, 12)
                .mapToObj(i -> http.sendAsync(HttpRequest.newBuilder(api).build(), HttpResponse.BodyHandlers.ofString()))
                .toList();
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            assertEquals(200, call.get(20, TimeUnit.SECONDS).statusCode());
        }
    }
}
