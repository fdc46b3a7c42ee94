package io.threadlab.api;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * Four worker threads, and room everywhere else: the delay client's connections are not the limit, and a call waits
 * 1 s to connect plus 2 s to read at most (FanoutLimitsTest's 503s say so). MoreCallersThanWorkersTest and, where
 * workers run the fan-out, FanoutLimitsTest share it, and with it one start of Quarkus.
 */
public class FourWorkers implements QuarkusTestProfile {

    static final int WORKERS = 4;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.thread-pool.max-threads", String.valueOf(WORKERS),
                "quarkus.rest-client.delay.connection-pool-size", "64",
                "quarkus.rest-client.delay.connect-timeout", "1000",
                "quarkus.rest-client.delay.read-timeout", "2000");
    }
}
