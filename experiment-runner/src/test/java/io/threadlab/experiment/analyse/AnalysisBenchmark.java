package io.threadlab.experiment.analyse;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * How long the analysis takes, and how much heap, on a large recording. A JFR file is a sequence of chunks, so
 * copies of a real recording laid end to end make a valid large one. Prints numbers; asserts nothing, so it is not a
 * test (its name does not end in Test) and runs only when asked. It lives in the test sources to keep it out of the
 * product jar, in the analysis' package for the package-private analyser; the shaded jar gives it every dependency:
 *
 * <pre>./mvnw -pl experiment-runner package -DskipTests     # compiles the test sources too
 * java -Xmx1g -cp experiment-runner/target/experiment-runner.jar:experiment-runner/target/test-classes \
 *     io.threadlab.experiment.analyse.AnalysisBenchmark results/&lt;run&gt;/jfr/reactive-closed-500-jfr-1.jfr 100</pre>
 */
public final class AnalysisBenchmark {

    private AnalysisBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: AnalysisBenchmark <recording.jfr> [target MB, default 100] [delay port]");
            System.exit(2);
        }
        Path source = Path.of(args[0]);
        long targetBytes = (args.length > 1 ? Long.parseLong(args[1]) : 100) * 1024 * 1024;
        int delayPort = args.length > 2 ? Integer.parseInt(args[2]) : 8090;
        Path big = Files.createTempFile("analysis-benchmark", ".jfr");
        try {
            byte[] recording = Files.readAllBytes(source);
            try (OutputStream out = Files.newOutputStream(big, StandardOpenOption.TRUNCATE_EXISTING)) {
                for (long written = 0; written < targetBytes; written += recording.length) {
                    out.write(recording);
                }
            }
            System.gc();
            ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
            long start = System.nanoTime();
            RecordingAnalysis analysis = new RecordingAnalyzer(delayPort).analyse(big);
            long analysed = System.nanoTime();
            ThreadLanes.read(analysis, Duration.ofMillis(200), 14);
            long lanes = System.nanoTime();
            long peakHeap = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(p -> p.getType() == MemoryType.HEAP).mapToLong(p -> p.getPeakUsage().getUsed()).sum();
            long events = analysis.eventCounts().values().stream().mapToLong(Long::longValue).sum();
            System.out.printf("recording: %s, %.1f MB (%d copies of %s), %,d events%n", big,
                    Files.size(big) / 1048576.0, (Files.size(big) + recording.length - 1) / recording.length,
                    source.getFileName(), events);
            System.out.printf("statistics pass: %.1f s; lane pass: %.1f s; total %.1f s%n", (analysed - start) / 1e9,
                    (lanes - analysed) / 1e9, (lanes - start) / 1e9);
            System.out.printf("peak heap: %.0f MB (sum of the heap pools' peaks, an upper bound) with -Xmx %.0f MB%n",
                    peakHeap / 1048576.0, Runtime.getRuntime().maxMemory() / 1048576.0);
        } catch (IOException | UnusableRecording e) {
            System.err.println("benchmark failed: " + e.getMessage());
            System.exit(1);
        } finally {
            Files.deleteIfExists(big);
        }
    }
}
