package io.threadlab.experiment.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Fails early, naming the port and the process holding it, instead of a service dying with "address in use". */
public final class PortCheck {

    private PortCheck() {
    }

    public static void requireFree(int port, String forWhat) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " (" + forWhat + ") is already in use" + holder(port)
                    + ". Stop that process, or run the lab when the port is free.");
        }
    }

    private static String holder(int port) {
        try {
            Process ss = new ProcessBuilder("ss", "-ltnpH", "sport = :" + port).redirectErrorStream(true).start();
            String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            ss.waitFor(5, TimeUnit.SECONDS);
            int users = out.indexOf("users:");
            return users >= 0 ? " by " + out.substring(users) : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
