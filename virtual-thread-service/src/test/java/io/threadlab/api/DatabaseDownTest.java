package io.threadlab.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * No database at all, as in every HTTP-only run: the service is ready anyway, Hibernate included, and GET
 * /api/articles is a 502, through Hibernate too (?access=orm), or a 501 where the build has none; an unknown
 * ?access= is a 400.
 */
@QuarkusTest
@TestProfile(NothingListening.class)
class DatabaseDownTest {

    @Test
    void theServiceIsReadyWithoutItsDatabase() {
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", is("UP"));
    }

    @Test
    void anUnreachableDatabaseIsABadGateway() {
        given().when().get("/api/articles")
                .then().statusCode(502)
                .contentType("application/json")
                .body("error", is("database unreachable"))
                .body("cause", notNullValue());
    }

    /** Refused before the database is asked: a 400 here, not the 502 of a read. */
    @Test
    void anUnknownAccessIsABadRequestNamingTheAcceptedOnes() {
        given().when().get("/api/articles?access=jpa")
                .then().statusCode(400)
                .contentType("application/json")
                .body("error", is("access must be jdbc or orm"))
                .body("cause", is("access=jpa was given"));
    }

    @Test
    void throughHibernateAnUnreachableDatabaseIsABadGatewayToo() {
        List<String> served = OrmArticlesTest.servedAccess();
        assumeTrue(served.contains("orm"), "this build has no Hibernate (dataAccess.served " + served + ")");
        given().when().get("/api/articles?access=orm")
                .then().statusCode(502)
                .contentType("application/json")
                .body("error", is("database unreachable"))
                .body("cause", notNullValue());
    }

    /** The reactive service built on Quarkus 3.27, which publishes no Hibernate Reactive. */
    @Test
    void aBuildWithoutHibernateSaysSoWhenAskedToReadThroughIt() {
        List<String> served = OrmArticlesTest.servedAccess();
        assumeFalse(served.contains("orm"), "this build reads through Hibernate (dataAccess.served " + served
                + "): OrmArticlesTest and the test above");
        given().when().get("/api/articles?access=orm")
                .then().statusCode(501)
                .contentType("application/json")
                .body("error", is("this build has no Hibernate Reactive"))
                .body("cause", notNullValue());
    }
}
