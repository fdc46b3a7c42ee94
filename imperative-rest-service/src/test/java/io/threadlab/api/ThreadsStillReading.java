package io.threadlab.api;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Threads of the service (not WireMock's, not the test's) caught blocked in a socket read: a leak after a timeout. */
final class ThreadsStillReading {

    private ThreadsStillReading() {
    }

    static List<String> downstream() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> !e.getKey().getName().startsWith("qtp")) // WireMock's Jetty, reading its own sockets
                .filter(e -> e.getKey() != Thread.currentThread())
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getMethodName().startsWith("socketRead")
                        || (f.getClassName().endsWith("NioSocketImpl") && f.getMethodName().equals("read"))))
                .map(Map.Entry::getKey)
                .map(Thread::getName)
                .toList();
    }
}
