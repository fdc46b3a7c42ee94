package io.threadlab.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The service's threads, virtual ones included, as the JDK's own thread dump has them: Thread.getAllStackTraces()
 * leaves virtual threads out, so a virtual thread that never finished its request would be invisible to it. WireMock's
 * threads (qtp...) serve the stub, not the service, and are left out.
 */
final class ServiceThreads {

    /** The service's own request code: a thread with one of these on its stack is serving, or never stopped. */
    private static final List<String> REQUEST_CODE = List.of("io.threadlab.api.ApiResource.",
            "io.threadlab.api.DelayClient");

    record Dumped(String name, List<String> stack) {

        boolean inRequestCode() {
            return stack.stream().anyMatch(frame -> REQUEST_CODE.stream().anyMatch(frame::contains));
        }
    }

    /** What was left once the service had had time to finish: its threads and those still in request code. */
    record Settled(int count, List<String> inRequestCode, List<String> names) {
    }

    private ServiceThreads() {
    }

    static List<Dumped> all() {
        try {
            Path dir = Files.createTempDirectory("threads");
            Path dump = dir.resolve("dump.json");
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(dump.toString(),
                        HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
                List<Dumped> threads = new ArrayList<>();
                for (JsonNode container : new ObjectMapper().readTree(dump.toFile()).path("threadDump")
                        .path("threadContainers")) {
                    for (JsonNode thread : container.path("threads")) {
                        String name = thread.path("name").asText();
                        long tid = thread.path("tid").asLong();
                        if (name.startsWith("qtp") || tid == Thread.currentThread().threadId()) {
                            continue;
                        }
                        if (name.isEmpty()) { // a virtual thread started without a name
                            name = "unnamed thread #" + tid;
                        }
                        List<String> stack = new ArrayList<>();
                        thread.path("stack").forEach(frame -> stack.add(frame.asText()));
                        threads.add(new Dumped(name, stack));
                    }
                }
                return threads;
            } finally {
                Files.deleteIfExists(dump);
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The threads once none is in request code and there are at most {@code most}, or as they are after
     * {@code within}: a request thread may still be finishing when its reply arrives, a leaked one never finishes.
     */
    static Settled settle(int most, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            List<Dumped> threads = all();
            List<String> serving = threads.stream().filter(Dumped::inRequestCode).map(Dumped::name).toList();
            if ((serving.isEmpty() && threads.size() <= most) || System.nanoTime() > deadline) {
                return new Settled(threads.size(), serving, threads.stream().map(Dumped::name).sorted().toList());
            }
            Thread.sleep(100);
        }
    }
}
