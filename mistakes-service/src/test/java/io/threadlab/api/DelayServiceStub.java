package io.threadlab.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

/**
 * A real HTTP delay service for tests: WireMock answering {@code /delay} after a fixed 10 ms, as the real one does,
 * and counting the calls it serves at once ({@link CallsInFlight}, injected like the server).
 */
public class DelayServiceStub implements QuarkusTestResourceLifecycleManager {

    /** Marks the test field that receives the running stub, to change its answers per test. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface InjectDelayService {
    }

    private final CallsInFlight calls = new CallsInFlight();
    private WireMockServer server;

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1").extensions(calls));
        server.start();
        answerNormally(server);
        return Map.of("quarkus.rest-client.delay.url", server.baseUrl());
    }

    public static void answerNormally(WireMockServer server) {
        server.resetAll();
        server.stubFor(get(urlPathEqualTo("/delay")).willReturn(aResponse()
                .withFixedDelay(10)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"message\":\"delayed 10 ms\",\"requestedMs\":10,\"servedMs\":10.2}")));
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(server,
                new TestInjector.AnnotatedAndMatchesType(InjectDelayService.class, WireMockServer.class));
        injector.injectIntoFields(calls,
                new TestInjector.AnnotatedAndMatchesType(InjectDelayService.class, CallsInFlight.class));
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }
}
