package io.threadlab.experiment.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A loopback HTTP server that stalls the way the delay service once did: for {@link #STALL} it sends the status line,
 * the headers (a body of 1,000 bytes announced) and the first bytes of the body, then nothing more, holding the
 * connection open until it is closed. Any other path is answered {@code ok} whole. A raw socket, so that nothing
 * between the test and the wire finishes the body or closes the connection on its own.
 */
public final class StallingServer implements AutoCloseable {

    public static final String STALL = "/stall";
    public static final String PART_OF_THE_BODY = "# HELP delay_served_seconds";

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private final CountDownLatch stalled = new CountDownLatch(1);

    public StallingServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().daemon().name("stalling-server").start(this::accept);
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + path);
    }

    /** Whether a stalled answer's headers and first bytes went out: the stall came after them. */
    public boolean sentHeadersAndPartOfTheBody() {
        return stalled.getCount() == 0;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                held.add(socket);
                Thread.ofPlatform().daemon().name("stalling-server-connection").start(() -> answer(socket));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void answer(Socket socket) {
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII));
            String requestLine = in.readLine();
            for (String header = in.readLine(); header != null && !header.isEmpty(); header = in.readLine()) {
                // the request's headers: read and ignored
            }
            OutputStream out = socket.getOutputStream();
            if (requestLine != null && requestLine.split(" ")[1].equals(STALL)) {
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n"
                        + PART_OF_THE_BODY).getBytes(StandardCharsets.US_ASCII));
                out.flush();
                stalled.countDown();
                return; // the connection stays open, silent, until close()
            }
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            socket.close();
        } catch (IOException e) {
            // the client went away
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        server.close();
        for (Socket socket : held) {
            socket.close();
        }
        acceptor.join(java.time.Duration.ofSeconds(10));
    }
}
