package io.threadlab.experiment.load;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoundTripTest {

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
