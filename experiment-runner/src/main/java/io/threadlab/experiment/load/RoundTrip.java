package io.threadlab.experiment.load;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The network path between k6 and the services, with no service work on it: the time a TCP connect to a published
 * port takes (SYN out, SYN-ACK back; the engine's port proxy or the kernel answers it, never the JVM), sampled one
 * after another. k6 keeps its connections open, so each request crosses this path once there and back: the median
 * is what the wire adds to every latency.
 *
 * @param method    how it was timed
 * @param host      where the port was reached
 * @param samples   how many connects were timed
 * @param medianMs  their median
 * @param p99Ms     their 99th percentile
 */
public record RoundTrip(String method, String host, int port, int samples, double medianMs, double p99Ms) {

    public static final String METHOD = "TCP connect to the delay service's published port, one after another";
    /** The same path timed by k6 where it runs, when that is not this machine's runner. */
    public static final String K6_METHOD = "k6's TCP connect (http_req_connecting) to the delay service's published"
            + " port, each request on a new connection, one after another, from where k6 ran";
    /** Enough for a stable median and a p99 in well under a second on any network worth measuring over. */
    public static final int SAMPLES = 200;
    private static final int CONNECT_TIMEOUT_MS = 2000;

    /** Times {@code samples} connects after one untimed (it may resolve the name and warm the path). */
    public static RoundTrip measure(String host, int port, int samples) {
        InetSocketAddress address = new InetSocketAddress(host, port);
        connectNanos(address);
        long[] nanos = new long[samples];
        for (int i = 0; i < samples; i++) {
            nanos[i] = connectNanos(address);
        }
        Arrays.sort(nanos);
        return new RoundTrip(METHOD, host, port, samples, percentile(nanos, 0.5) / 1e6, percentile(nanos, 0.99) / 1e6);
    }

    private static long connectNanos(InetSocketAddress address) {
        try (Socket socket = new Socket()) {
            socket.setSoLinger(true, 0); // closed with a reset: no TIME_WAIT left per sample on either side
            long start = System.nanoTime();
            socket.connect(address, CONNECT_TIMEOUT_MS);
            return System.nanoTime() - start;
        } catch (IOException e) {
            throw new IllegalStateException("cannot measure the round trip to " + address + ": " + e.getMessage(), e);
        }
    }

    /**
     * What {@code k6/roundtrip.js} wrote: its connects, timed where k6 ran. Any connect that failed fails the
     * measurement, as one here would.
     */
    public static RoundTrip fromK6(String host, int port, Path summary) {
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(summary.toFile());
        } catch (IOException e) {
            throw new IllegalStateException("k6 measured no round trip to " + host + ":" + port + " (no " + summary
                    .getFileName() + "; see its log beside it)", e);
        }
        if (node.path("failed").asInt() > 0 || node.path("samples").asInt() <= 0) {
            throw new IllegalStateException("k6 could not reach " + host + ":" + port + " from where it runs ("
                    + node.path("failed").asInt() + " of " + (node.path("samples").asInt() + 1) + " connects failed):"
                    + " the services' published ports must be reachable from the load's machine");
        }
        return new RoundTrip(K6_METHOD, host, port, node.path("samples").asInt(), node.path("median_ms").asDouble(),
                node.path("p99_ms").asDouble());
    }

    /** Nearest rank on sorted values. */
    static double percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** As the manifest records it. */
    public Map<String, Object> facts() {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("method", method);
        facts.put("to", host + ":" + port);
        facts.put("samples", samples);
        facts.put("median_ms", round(medianMs));
        facts.put("p99_ms", round(p99Ms));
        return facts;
    }

    private static double round(double ms) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.4f", ms));
    }
}
