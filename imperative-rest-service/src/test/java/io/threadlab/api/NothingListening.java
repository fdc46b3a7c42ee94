package io.threadlab.api;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;

/**
 * Nothing downstream: the delay client and the datasource both point at loopback ports that were free a moment ago,
 * so connections are refused. DelayServiceDownTest and DatabaseDownTest share it, and with it one start of Quarkus:
 * neither path touches the other's downstream.
 */
public class NothingListening implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.rest-client.delay.url", "http://127.0.0.1:" + freePort(),
                "lab.db.url", "postgresql://127.0.0.1:" + freePort() + "/lab");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
