package io.threadlab.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The recorded workloads' delay service, in a process of its own as the lab's is: answers each byte with one byte
 * after the given milliseconds, a thread per connection. In the recorded JVM its threads' CPU, which no execution
 * sample sees (they wait in sleeps and socket calls), was shared out to the request code's samples and could make
 * light request code look heavy on a busy machine. Prints its port, then serves until its standard input closes, so
 * that it ends with the JVM that started it, however that ends.
 */
public final class DelayStub {

    private DelayStub() {
    }

    public static void main(String[] args) throws IOException {
        int delayMs = Integer.parseInt(args[0]);
        ServerSocket server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("delay-stub-accept").start(() -> accept(server, delayMs));
        System.out.println(server.getLocalPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // the parent's end of the pipe is open: serve on
        }
        System.exit(0);
    }

    private static void accept(ServerSocket server, int delayMs) {
        while (true) {
            try {
                Socket socket = server.accept();
                Thread.ofPlatform().daemon().name("delay-stub").start(() -> serve(socket, delayMs));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void serve(Socket socket, int delayMs) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            while (in.read() >= 0) {
                Thread.sleep(delayMs);
                out.write(1);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // connection closed
        }
    }
}
