package io.threadlab.experiment.load;

import io.threadlab.experiment.plan.WarmUpPolicy;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.record.CompilerActivity;
import io.threadlab.experiment.process.ThreadGroupTimes;
import io.threadlab.experiment.start.RunningJvm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Load at the window's level until the compiler is quiet and every user has been answered since the load last changed
 * ({@link LoadSession#answeredAtChange}), for at least the least settle time and at most its ceiling. After an idle
 * gap, or after a recording started or stopped, HotSpot deoptimises and recompiles under the next load (measured: 164
 * deoptimisations and ~18 % of the quota compiling in the first seconds after a minute idle; ~25 s slower after a
 * recording stopped), and a window must not measure that. Quiet: the compiler threads used at most 2 % of the quota
 * over the last two seconds, with an empty C2 queue where it is known.
 */
final class Settle {

    private final Console console;
    private final Consumer<RunningJvm> requireAlive;

    Settle(Console console, Consumer<RunningJvm> requireAlive) {
        this.console = console;
        this.requireAlive = requireAlive;
    }

    Settled until(RunningJvm jvm, LoadSession load, int users, int leastSeconds, int mostSeconds, double quota) {
        long start = System.nanoTime();
        // a load that ran on unchanged from the step before (the open model after the closed window at its level and
        // delay) had every user answered already; one that started, resumed or met a change has not
        long answeredAtChange = load.answeredAtChange();
        boolean everyUser = false;
        List<Double> compilerMsPerSecond = new ArrayList<>();
        boolean quiet = false;
        ThreadGroupTimes last = jvm.service().threadTimes();
        long lastAt = System.nanoTime();
        double elapsed = 0;
        while (elapsed < mostSeconds) {
            Pause.millis(1000);
            requireAlive.accept(jvm);
            if (!load.isAlive()) {
                load.read(); // says why
            }
            ThreadGroupTimes now = jvm.service().threadTimes();
            long at = System.nanoTime();
            compilerMsPerSecond.add(Math.max(0, now.group(ThreadGroupTimes.COMPILER).cpuNanos()
                    - last.group(ThreadGroupTimes.COMPILER).cpuNanos()) / 1e6 / ((at - lastAt) / 1e9));
            last = now;
            lastAt = at;
            elapsed = (at - start) / 1e9;
            CompilerActivity compiler = jvm.compiler();
            boolean queueEmpty = compiler == null || compiler.snapshot().c2Queue() == 0;
            quiet = compilerMsPerSecond.size() >= 2 && queueEmpty && compilerMsPerSecond
                    .subList(compilerMsPerSecond.size() - 2, compilerMsPerSecond.size()).stream()
                    .mapToDouble(d -> d).average().orElseThrow() <= WarmUpPolicy.COMPILER_QUIET_SHARE * quota * 1000;
            everyUser = load.read().completed() - answeredAtChange >= users;
            console.status(String.format(Locale.ROOT, "%s settling at %d users: compiler %.0f ms/s%s",
                    jvm.jvm(), users, compilerMsPerSecond.getLast(), everyUser ? "" : ", not every user answered yet"),
                    false);
            if (quiet && everyUser && elapsed >= leastSeconds) {
                break;
            }
        }
        return new Settled((System.nanoTime() - start) / 1e9, quiet, everyUser);
    }
}
