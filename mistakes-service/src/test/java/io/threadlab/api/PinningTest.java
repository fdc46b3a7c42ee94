package io.threadlab.api;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where a blocking call still pins a virtual thread's carrier on this JDK, and where it no longer does. */
@QuarkusTest
@QuarkusTestResource(DelayServiceStub.class)
class PinningTest {

    private static final int REQUESTS = 5;

    @Test
    void blockingInsideAClassInitialiserPinsOncePerRequest() throws Exception {
        List<String> pinned = PinningRecorder.pinnedDuring(() -> requests("/mistakes/pinning/class-init"));
        assertTrue(pinned.size() >= REQUESTS, "pinned: " + pinned);
        assertTrue(pinned.stream().allMatch(reason -> reason.contains("BlockingClassInit") && reason.contains("<clinit>")),
                "pinned for another reason than the class initialiser: " + pinned);
    }

    @Test
    void blockingInsideSynchronizedNoLongerPins() throws Exception {
        // JDK 24+ (JEP 491): a virtual thread that blocks while holding a monitor unmounts.
        List<String> pinned = PinningRecorder.pinnedDuring(() -> requests("/mistakes/pinning/synchronized"));
        assertEquals(List.of(), pinned, "why virtual threads pinned");
    }

    private static void requests(String path) {
        for (int i = 0; i < REQUESTS; i++) {
            given().when().get(path).then().statusCode(200);
        }
    }
}
