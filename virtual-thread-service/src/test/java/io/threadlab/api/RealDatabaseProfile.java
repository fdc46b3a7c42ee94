package io.threadlab.api;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * The service the classes reading the lab's real PostgreSQL with the usual pool share (ArticleResourceTest,
 * OrmArticlesTest, and NoPinningInJdbcTest where there is one), with LabPostgres at MATCHING_RESOURCES scope: one start
 * of Quarkus and one of PostgreSQL for all of them. None of the others reads a page through Hibernate, so
 * OrmArticlesTest's first page through Hibernate is still its own.
 */
public class RealDatabaseProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        // One event loop: the reactive variant's two first pages through Hibernate run on the same thread, as they
        // may in any run, and only their Vert.x contexts tell them apart (OrmArticlesTest). And room to open the
        // pool's first connections: the test profile's 1 s acquisition timeout, there to show a held pool within
        // seconds (DatabaseFailuresTest keeps it), was once exceeded by a first connection on a loaded machine (a 503
        // in OrmArticlesTest under the parallel build); no test here waits it out.
        return Map.of("quarkus.vertx.event-loops-pool-size", "1", "lab.db.acquisition-timeout-ms", "10000");
    }
}
