package io.threadlab.api;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hibernate ORM on the event loop is refused by Quarkus itself, at the repository's {@code @Transactional}, before any
 * SQL, so no database is needed to see it (this test has none): every request is a 500 that says so, and Quarkus REST
 * logs its advice, @Blocking, each time.
 */
@QuarkusTest
class OrmOnEventLoopTest {

    static final String PATH = "/mistakes/orm/on-event-loop";

    @Test
    void quarkusRefusesEveryRequestAndSaysSoEachTime() {
        List<LogRecord> errors = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    errors.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger mapper = Logger.getLogger("org.jboss.resteasy.reactive.server.core.RuntimeExceptionMapper");
        mapper.addHandler(handler);
        try {
            for (int i = 0; i < 2; i++) {
                given().when().get(PATH)
                        .then().statusCode(500)
                        .contentType("application/json")
                        .body("error", is("Quarkus refused to run Hibernate ORM on the event loop"))
                        .body("cause", is("io.quarkus.runtime.BlockingOperationNotAllowedException: Cannot start a"
                                + " JTA transaction from the IO thread."));
            }
        } finally {
            mapper.removeHandler(handler);
        }
        assertEquals(2, errors.size(), "one error per request: " + errors.stream().map(LogRecord::getMessage).toList());
        assertTrue(errors.getFirst().getMessage().startsWith("A blocking operation occurred on the IO thread. This"
                + " likely means you need to annotate io.threadlab.api.OrmOnEventLoopResource#newestPage() with"
                + " @io.smallrye.common.annotation.Blocking."), errors.getFirst().getMessage());
        // The loop was not held: the service answers again.
        given().when().get("/q/health/live").then().statusCode(200);
    }
}
