package io.threadlab.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;

/**
 * The delay service through {@code java.net.HttpURLConnection}: the blocking HTTP client inside many a legacy library
 * or SDK. Quarkus refuses its own REST client's blocking calls on the event loop (BlockingNotAllowedException), but it
 * cannot see this one: the calling thread simply sits in a socket read until the reply arrives. Connections are kept
 * alive and reused (the JDK's keep-alive cache), as a pooled client's would be, so what blocks is the wait itself.
 */
@ApplicationScoped
public class LegacyDelayClient {

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "quarkus.rest-client.delay.url")
    String baseUrl;

    @ConfigProperty(name = "quarkus.rest-client.delay.connect-timeout")
    int connectTimeoutMs;

    @ConfigProperty(name = "quarkus.rest-client.delay.read-timeout")
    int readTimeoutMs;

    public DelayReply delay() {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(baseUrl + "/delay").toURL()
                    .openConnection();
            connection.setConnectTimeout(connectTimeoutMs);
            connection.setReadTimeout(readTimeoutMs);
            int status = connection.getResponseCode();
            if (status >= 400) {
                // Read to the end, so that the connection goes back to the keep-alive cache.
                try (InputStream error = connection.getErrorStream()) {
                    if (error != null) {
                        error.readAllBytes();
                    }
                }
                throw new DownstreamFailure(Response.Status.BAD_GATEWAY, "delay service answered HTTP " + status, null);
            }
            try (InputStream body = connection.getInputStream()) {
                return json.readValue(body.readAllBytes(), DelayReply.class);
            }
        } catch (IOException e) {
            // As the REST clients do: the mapper finds a timeout or a refused connection in the cause chain.
            throw new ProcessingException("delay service call failed", e);
        }
    }
}
