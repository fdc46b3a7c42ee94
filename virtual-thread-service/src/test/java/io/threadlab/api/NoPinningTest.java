package io.threadlab.api;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

@QuarkusTest
@QuarkusTestResource(DelayServiceStub.class)
class NoPinningTest {

    @Test
    void concurrentRequestsNeverPinTheirCarrier() throws Exception {
        List<String> pinned = PinningRecorder.pinnedDuring(() -> {
            // More requests in flight than carriers, so virtual threads must unmount for the others to run.
            try (ExecutorService callers = Executors.newFixedThreadPool(8)) {
                List<Future<Integer>> statuses = IntStream.range(0, 40)
                        .mapToObj(i -> callers.submit(() -> given().when().get("/api").statusCode()))
                        .toList();
                for (Future<Integer> status : statuses) {
                    assertEquals(200, status.get());
                }
            }
        });
        assertEquals(List.of(), pinned, "frames that pinned a carrier");
    }

    @Test
    void theRecorderSeesPinningWhenItHappens() throws Exception {
        // Control: a virtual thread that parks inside a class initializer still pins on JDK 25.
        List<String> pinned = PinningRecorder.pinnedDuring(() -> Thread.ofVirtual().start(ParksWhileInitialising::touch).join());
        assertFalse(pinned.isEmpty(), "the recorder saw no pinning, so 'no pinning' above would prove nothing");
    }

    static final class ParksWhileInitialising {
        static {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
        }
    }
}
