package io.threadlab.api;

import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The fan-out query's rules, without a service: its defaults, its limit, and what a refusal says. */
class FanoutRequestsTest {

    private final FanoutRequests requests = new FanoutRequests(64, 1000);

    @Test
    void oneCallInParallelUnlessTold() {
        assertEquals(new Fanout(1, Fanout.Mode.PARALLEL), requests.parse(null, null));
        assertEquals(new Fanout(1, Fanout.Mode.PARALLEL), requests.parse("", " "));
        assertEquals(new Fanout(64, Fanout.Mode.SEQUENTIAL), requests.parse("64", "sequential"));
    }

    @Test
    void theLimitIsTheMaximumOrTheConnectionPoolWhicheverIsSmaller() {
        assertEquals(64, requests.limit());
        assertEquals(50, new FanoutRequests(64, 50).limit());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "65", "abc", "1.5", "2147483648"})
    void nOutsideOneToTheLimitIsRefused(String n) {
        Map<?, ?> body = refusal(() -> requests.parse(n, null));
        assertEquals("n must be an integer from 1 to 64", body.get("error"));
        assertEquals("n=" + n + " was given; lab.fanout.max-calls is 64", body.get("cause"));
    }

    @Test
    void aRefusalBecauseOfThePoolSaysSo() {
        Map<?, ?> body = refusal(() -> new FanoutRequests(64, 50).parse("51", null));
        assertEquals("n must be an integer from 1 to 50", body.get("error"));
        assertEquals("n=51 was given; the delay client's connection pool holds 50 (lab.fanout.max-calls is 64)",
                body.get("cause"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"fast", "PARALLEL", "both"})
    void anUnknownModeIsRefused(String mode) {
        Map<?, ?> body = refusal(() -> requests.parse("2", mode));
        assertEquals("mode must be parallel or sequential", body.get("error"));
        assertEquals("mode=" + mode + " was given", body.get("cause"));
    }

    private static Map<?, ?> refusal(Runnable parse) {
        Response response = assertThrows(BadRequest.class, parse::run).getResponse();
        assertEquals(400, response.getStatus());
        return (Map<?, ?>) response.getEntity();
    }
}
