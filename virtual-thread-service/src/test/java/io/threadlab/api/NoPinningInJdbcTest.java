package io.threadlab.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * NoPinningTest's check for GET /api/articles, in a class of its own because it needs the real database: neither
 * Agroal (2.8, in Quarkus 3.27) nor pgjdbc pins a virtual thread's carrier on this JDK, measured with
 * {@code jdk.VirtualThreadPinned} at threshold 0 (NoPinningTest proves the recorder sees pinning when it happens).
 */
@QuarkusTest
@RealPostgres
@TestProfile(RealDatabaseProfile.class)
@WithTestResource(value = LabPostgres.class, scope = TestResourceScope.MATCHING_RESOURCES)
class NoPinningInJdbcTest {

    @Test
    void articleRequestsNeverPinTheirCarrier() throws Exception {
        // The first request loads the driver's and the page's classes. On JDK 25 a virtual thread that waits for a
        // class another thread is initialising still pins (the gallery's pinned-class-init): 8 first callers at
        // once pinned 18 times in ArticleRepository.newestPage, once each, never again. Steady state is the claim.
        // Classes first used only under concurrency (a caller waiting for a connection Agroal is opening) pinned once
        // in CI on 2026-11-27, after a single first request: the warm-up is concurrent too, as the recorded phase is.
        try (ExecutorService warm = Executors.newFixedThreadPool(8)) {
            List<Future<Integer>> first = IntStream.range(0, 16)
                    .mapToObj(i -> warm.submit(() -> given().when().get("/api/articles").statusCode())).toList();
            for (Future<Integer> status : first) {
                assertEquals(200, status.get());
            }
        }
        List<String> pinned = PinningRecorder.pinnedDuring(() -> {
            // The pool holds one connection, so the next requests wait while Agroal opens more (on its housekeeping
            // thread, in 2.8); then 8 callers share its 4 connections (the tests' pool), so virtual threads also wait
            // for one to be returned; and pgjdbc waits for every reply in a socket read.
            try (ExecutorService callers = Executors.newFixedThreadPool(8)) {
                List<Future<Integer>> statuses = IntStream.range(0, 40)
                        .mapToObj(i -> callers.submit(() -> given().when().get("/api/articles").statusCode()))
                        .toList();
                for (Future<Integer> status : statuses) {
                    assertEquals(200, status.get());
                }
            }
        });
        assertEquals(List.of(), pinned, "frames that pinned a carrier");
    }
}
