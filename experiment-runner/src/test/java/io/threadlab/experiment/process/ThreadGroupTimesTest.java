package io.threadlab.experiment.process;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadGroupTimesTest {

    @Test
    void readsCpuAndRunQueueWaitFromSchedstatAndSwitchesFromStatus() {
        // /proc/<pid>/task/<tid>/schedstat: ns on the CPU, ns runnable but waiting, timeslices
        String schedstat = "8123456789 912345678 4711\n";
        String status = """
                Name:\tC2 CompilerThre
                State:\tS (sleeping)
                Tgid:\t4242
                Pid:\t4250
                Threads:\t31
                voluntary_ctxt_switches:\t1520
                nonvoluntary_ctxt_switches:\t87
                """;
        assertThat(ThreadGroupTimes.parse(schedstat, status))
                .isEqualTo(new ThreadGroupTimes.Times(1, 8_123_456_789L, 912_345_678L, 1520, 87));
    }

    @Test
    void threadsAreGroupedByTheirOsNameWhichLinuxCutsTo15Characters() {
        assertThat(ThreadGroupTimes.groupOf("C1 CompilerThre")).isEqualTo(ThreadGroupTimes.COMPILER);
        assertThat(ThreadGroupTimes.groupOf("C2 CompilerThre")).isEqualTo(ThreadGroupTimes.COMPILER);
        assertThat(ThreadGroupTimes.groupOf("executor-thread")).isEqualTo("worker pool");
        assertThat(ThreadGroupTimes.groupOf("vert.x-eventloo")).isEqualTo("event loops");
        assertThat(ThreadGroupTimes.groupOf("ForkJoinPool-1-")).isEqualTo("carriers");
        assertThat(ThreadGroupTimes.groupOf("GC Thread#0")).isEqualTo("GC and VM");
        assertThat(ThreadGroupTimes.groupOf("VM Thread")).isEqualTo("GC and VM");
        assertThat(ThreadGroupTimes.groupOf("VM Periodic Tas")).isEqualTo("GC and VM");
        assertThat(ThreadGroupTimes.groupOf("JFR Recorder Th")).isEqualTo("JFR");
        assertThat(ThreadGroupTimes.groupOf("Signal Dispatch")).isEqualTo("other");
        assertThat(ThreadGroupTimes.groupOf("java")).isEqualTo("other");
    }

    @Test
    void anIntervalIsOneReadingMinusTheOtherPerGroupWithTheLaterThreadCount() {
        Map<String, ThreadGroupTimes.Times> before = new LinkedHashMap<>();
        before.put(ThreadGroupTimes.COMPILER, new ThreadGroupTimes.Times(3, 5_000, 700, 40, 9));
        before.put("worker pool", new ThreadGroupTimes.Times(20, 90_000, 8_000, 400, 60));
        Map<String, ThreadGroupTimes.Times> after = new LinkedHashMap<>();
        after.put(ThreadGroupTimes.COMPILER, new ThreadGroupTimes.Times(2, 5_600, 750, 46, 9));
        after.put("worker pool", new ThreadGroupTimes.Times(25, 150_000, 9_000, 700, 75));
        after.put("JFR", new ThreadGroupTimes.Times(2, 300, 10, 5, 1)); // new since: all of it is in the interval

        Map<String, ThreadGroupTimes.Times> interval = new ThreadGroupTimes(after).since(new ThreadGroupTimes(before));

        assertThat(interval).containsExactly(
                Map.entry(ThreadGroupTimes.COMPILER, new ThreadGroupTimes.Times(2, 600, 50, 6, 0)),
                Map.entry("worker pool", new ThreadGroupTimes.Times(25, 60_000, 1_000, 300, 15)),
                Map.entry("JFR", new ThreadGroupTimes.Times(2, 300, 10, 5, 1)));
        assertThat(new ThreadGroupTimes(after).threadCounts()).containsExactly(
                Map.entry(ThreadGroupTimes.COMPILER, 2), Map.entry("worker pool", 25), Map.entry("JFR", 2));
        assertThat(new ThreadGroupTimes(before).group("event loops").threads()).as("an absent group").isZero();
    }

    @Test
    void readsThisJvmsOwnCompilerThreads() {
        Path tasks = Path.of("/proc", String.valueOf(ProcessHandle.current().pid()), "task");
        Assumptions.assumeTrue(Files.isDirectory(tasks), "thread times come from /proc/<pid>/task (Linux only)");
        ThreadGroupTimes times = ThreadGroupTimes.of(ProcessHandle.current().pid());
        ThreadGroupTimes.Times compiler = times.group(ThreadGroupTimes.COMPILER);
        assertThat(compiler.threads()).as("C1 and C2 compiler threads").isPositive();
        assertThat(compiler.cpuNanos()).as("the test JVM has compiled something").isPositive();
        assertThat(times.group("GC and VM").threads()).as("the VM thread, at least").isPositive();
    }

    @Test
    void aProcessThatIsGoneReadsAsEmpty() {
        assertThat(ThreadGroupTimes.of(Long.MAX_VALUE).groups()).isEmpty();
    }

    @Test
    void aContainersDumpReadsAsItsProcDoes() throws Exception {
        long pid = ProcessHandle.current().pid();
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc", String.valueOf(pid), "task")),
                "thread times come from /proc/<pid>/task (Linux only)");
        // The script a container runs on its PID 1, run here on this JVM: the same groups as reading /proc directly.
        Process sh = new ProcessBuilder("sh", "-c", ThreadGroupTimes.DUMP.replace("/proc/1/", "/proc/" + pid + "/"))
                .redirectErrorStream(true).start();
        String dump = new String(sh.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(sh.waitFor()).isZero();
        ThreadGroupTimes fromDump = ThreadGroupTimes.fromDump(dump);
        // Compiler threads come and go between two readings: the groups are compared, not their counts.
        assertThat(fromDump.groups().keySet()).containsAll(List.of(ThreadGroupTimes.COMPILER, "GC and VM"))
                .isSubsetOf(ThreadGroupTimes.of(pid).groups().keySet());
        assertThat(fromDump.group(ThreadGroupTimes.COMPILER).cpuNanos()).isPositive();
        assertThat(fromDump.group("GC and VM").voluntarySwitches()).as("status was read too").isPositive();
        assertThat(fromDump.tasks()).as("threads by their ids, as in /proc").containsKey(pid);
        assertThat(ThreadGroupTimes.fromDump("@task 4250 C2 CompilerThre\n").groups()).as("a thread cut short")
                .isEmpty();
    }

    @Test
    void sleepsAreCountedThreadByThreadAndNotAtAllWhereAThreadEnded() {
        ThreadGroupTimes before = new ThreadGroupTimes(Map.of(), Map.of(
                11L, new ThreadGroupTimes.Task("event loops", times(100)),
                12L, new ThreadGroupTimes.Task("event loops", times(40)),
                13L, new ThreadGroupTimes.Task(ThreadGroupTimes.COMPILER, times(7))));
        ThreadGroupTimes after = new ThreadGroupTimes(Map.of(), Map.of(
                11L, new ThreadGroupTimes.Task("event loops", times(160)),
                12L, new ThreadGroupTimes.Task("event loops", times(45)),
                14L, new ThreadGroupTimes.Task("event loops", times(3)))); // started since: all of it
        Set<String> loops = Set.of("event loops");
        assertThat(after.voluntarySwitchesSince(before, loops)).hasValue(60 + 5 + 3);
        // the compiler thread that ended is no thread of the groups asked for
        assertThat(after.voluntarySwitchesSince(before, Set.of("event loops", ThreadGroupTimes.COMPILER)))
                .as("a thread of theirs ended: its switches in between are unknown").isEmpty();
        ThreadGroupTimes oneEnded = new ThreadGroupTimes(Map.of(), Map.of(
                11L, new ThreadGroupTimes.Task("event loops", times(160))));
        assertThat(oneEnded.voluntarySwitchesSince(before, loops)).isEmpty();
        assertThat(new ThreadGroupTimes(Map.of()).voluntarySwitchesSince(before, loops)).as("no threads named")
                .isEmpty();
    }

    private static ThreadGroupTimes.Times times(long voluntarySwitches) {
        return new ThreadGroupTimes.Times(1, 1_000, 10, voluntarySwitches, 0);
    }
}
