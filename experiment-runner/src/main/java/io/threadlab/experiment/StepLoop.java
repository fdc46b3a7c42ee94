package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.process.ServiceUnresponsive;
import io.threadlab.experiment.progress.Console;

import java.util.Locale;

/**
 * Carries out one step at a time, each under a watchdog set to the step's ceiling (from the plan's own ceilings:
 * warm-up, settle, window, drain). A step past its ceiling is interrupted and ends as a named failure of that step:
 * the performer recovers what it can (a window's point is marked lost and its load ended, a JVM whose warm-up hung is
 * not measured), the manifest records it, and the run goes on. A step whose service stopped answering the runner
 * (alive, no whole answer within the exchange's deadline: a mistake that blocks its event loops serves nothing, its
 * metrics included) is recovered the same way. Only a step whose loss the run cannot survive (the JVMs that did not
 * start) ends it, cleanly. Every step is recorded in the manifest as it ran.
 */
final class StepLoop {

    /** Carries out steps, and picks up after one that timed out. */
    interface Performer {
        void perform(Step step);

        /**
         * After {@code step} passed its ceiling and was interrupted, or its service stopped answering: end what it
         * left running and mark what it did not measure; throw if the run cannot go on.
         */
        void timedOut(Step step, String why);
    }

    private final Performer performer;
    private final Manifest manifest;
    private final Console console;

    StepLoop(Performer performer, Manifest manifest, Console console) {
        this.performer = performer;
        this.manifest = manifest;
        this.console = console;
    }

    void perform(Step step, long runStart) {
        perform(step, runStart, step.ceilingSeconds() * 1000L);
    }

    /** With the ceiling given in milliseconds (tests use short ones). */
    void perform(Step step, long runStart, long ceilingMillis) {
        long stepStart = System.nanoTime();
        if (!(step instanceof Step.Measure)) { // a window announces itself with its result
            console.say(step.describe());
        }
        String outcome = null;
        try (Watchdog watchdog = Watchdog.arm(ceilingMillis)) {
            try {
                performer.perform(step);
            } catch (RuntimeException e) {
                boolean unanswered = e instanceof ServiceUnresponsive;
                if (!watchdog.fired() && !unanswered) {
                    throw e;
                }
                Thread.interrupted(); // what recovers must be able to wait
                outcome = watchdog.fired() ? String.format(Locale.ROOT, "timed out: still running after its ceiling"
                        + " of %d s (%s)", ceilingMillis / 1000, e.getMessage())
                        : "no answer: " + e.getMessage(); // the message names who did not answer: the service or k6
                String warning = step.describe() + ": " + outcome;
                console.warn(warning);
                manifest.warn(warning);
                performer.timedOut(step, outcome);
            }
        }
        manifest.stepDone(new RunManifest.StepAsRun(step.kind(), step.describe(), tenths(stepStart - runStart),
                tenths(System.nanoTime() - stepStart), outcome));
    }

    private static double tenths(long nanos) {
        return Math.round(nanos / 1e8) / 10.0;
    }
}
