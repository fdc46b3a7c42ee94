package io.threadlab.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;

/**
 * Downstream failures are the same 502 and 504 as in the variants, through each kind of call: the legacy client on
 * the event loop, the REST client, and the calls made inside a class initialiser and a native call's request.
 */
@QuarkusTest
@QuarkusTestResource(DelayServiceStub.class)
class DownstreamFailuresTest {

    @DelayServiceStub.InjectDelayService
    WireMockServer delayService;

    @BeforeEach
    void answerNormally() {
        DelayServiceStub.answerNormally(delayService);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/mistakes/blocking-event-loop", "/mistakes/cpu/event-loop", "/mistakes/pinning/class-init",
            "/mistakes/native-call"})
    void aDownstreamErrorIsABadGateway(String path) {
        delayService.stubFor(get(urlPathEqualTo("/delay")).willReturn(aResponse().withStatus(500)));
        given().when().get(path)
                .then().statusCode(502)
                .contentType("application/json")
                .body("error", is("delay service answered HTTP 500"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/mistakes/blocking-event-loop", "/mistakes/pinning/class-init"})
    void aDownstreamSlowerThanTheReadTimeoutIsAGatewayTimeout(String path) {
        delayService.stubFor(get(urlPathEqualTo("/delay")).willReturn(aResponse().withFixedDelay(2_000)));
        given().when().get(path)
                .then().statusCode(504)
                .contentType("application/json")
                .body("error", is("delay service did not answer within the read timeout"));
    }
}
