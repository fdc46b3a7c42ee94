package io.threadlab.api;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * The service the classes reading the lab's real PostgreSQL share (JdbcOnEventLoopTest and LazyPerRowTest), with
 * LabPostgres at MATCHING_RESOURCES scope: one start of Quarkus and one of PostgreSQL for both. JdbcOnEventLoopTest
 * reads no page through Hibernate, so LazyPerRowTest's first pages through Hibernate are still its own.
 */
public class OneEventLoopOnTheDatabase implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        // One event loop (a 0.5-CPU container has two), so that what one request does to the others shows with two
        // requests (JdbcOnEventLoopTest); and room for a query past Vert.x's blocked-thread warning. LazyPerRowTest
        // reads on workers, within the timeout.
        return Map.of("quarkus.vertx.event-loops-pool-size", "1", "lab.db.statement-timeout-ms", "10000");
    }
}
