package io.threadlab.experiment.load;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoundTripTest {

    @Test
    void k6sOwnTimingIsReadAndAnyFailedConnectFailsTheMeasurement(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        java.nio.file.Path good = java.nio.file.Files.writeString(dir.resolve("good.json"),
                "{\"samples\":200,\"failed\":0,\"median_ms\":0.159,\"p99_ms\":1.26}");
        RoundTrip wire = RoundTrip.fromK6("10.0.0.9", 8090, good);
        assertThat(wire.medianMs()).isEqualTo(0.159);
        assertThat(wire.samples()).isEqualTo(200);
        assertThat(wire.facts()).containsEntry("method", RoundTrip.K6_METHOD).containsEntry("to", "10.0.0.9:8090");
        java.nio.file.Path refused = java.nio.file.Files.writeString(dir.resolve("refused.json"),
                "{\"samples\":200,\"failed\":201,\"median_ms\":0,\"p99_ms\":0}");
        assertThatThrownBy(() -> RoundTrip.fromK6("10.0.0.9", 8090, refused)).hasMessageContaining(
                "k6 could not reach 10.0.0.9:8090 from where it runs (201 of 201 connects failed)");
        assertThatThrownBy(() -> RoundTrip.fromK6("10.0.0.9", 8090, dir.resolve("none.json")))
                .hasMessageContaining("k6 measured no round trip");
    }

    @Test
    void timesConnectsToAListeningPortThatNeverAccepts() throws IOException {
        // Nobody calls accept(): the kernel completes the handshake alone, as for a service with no work to do.
        try (ServerSocket listening = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress())) {
            RoundTrip wire = RoundTrip.measure("127.0.0.1", listening.getLocalPort(), 50);
            assertThat(wire.samples()).isEqualTo(50);
            assertThat(wire.medianMs()).isPositive().isLessThanOrEqualTo(wire.p99Ms());
            assertThat(wire.facts()).containsEntry("samples", 50).containsEntry("to", "127.0.0.1:"
                    + listening.getLocalPort()).containsKeys("method", "median_ms", "p99_ms");
        }
    }

    @Test
    void aClosedPortIsSaid() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        assertThatThrownBy(() -> RoundTrip.measure("127.0.0.1", port, 5))
                .hasMessageContaining("cannot measure the round trip to");
    }

    @Test
    void percentilesAreNearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(RoundTrip.percentile(sorted, 0.5)).isEqualTo(5);
        assertThat(RoundTrip.percentile(sorted, 0.99)).isEqualTo(10);
    }
}
