package io.threadlab.api;

import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code ?access=}'s rules, without a service: today's page unless told, and what a refusal says. */
class DataAccessTest {

    @Test
    void jdbcUnlessTold() {
        assertEquals(DataAccess.JDBC, DataAccess.requested(null));
        assertEquals(DataAccess.JDBC, DataAccess.requested(" "));
        assertEquals(DataAccess.JDBC, DataAccess.requested("jdbc"));
        assertEquals(DataAccess.ORM, DataAccess.requested("orm"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jpa", "ORM", "hibernate", "jdbc,orm"})
    void anUnknownAccessIsRefused(String access) {
        Response response = assertThrows(BadRequest.class, () -> DataAccess.requested(access)).getResponse();
        assertEquals(400, response.getStatus());
        Map<?, ?> body = (Map<?, ?>) response.getEntity();
        assertEquals("access must be jdbc or orm", body.get("error"));
        assertEquals("access=" + access + " was given", body.get("cause"));
    }
}
