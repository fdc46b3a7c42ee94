package io.threadlab.experiment.progress;

import io.threadlab.experiment.plan.Eta;

import java.time.Duration;

/** Progress on the console: elapsed and estimated remaining time, the phase, and live throughput. */
public final class Console {

    private final long startNanos = System.nanoTime();
    private final boolean terminal = System.console() != null;
    private volatile Eta eta;
    private boolean midLine;

    /** From now on the prefix says how long the run has left, as {@code eta} estimates it. */
    public void follow(Eta eta) {
        this.eta = eta;
    }

    /** A line that stays. */
    public synchronized void say(String message) {
        endLine();
        System.out.println(prefix() + message);
    }

    /** A status that replaces itself on a terminal, and is printed now and then otherwise. */
    public synchronized void status(String message, boolean printWhenNotTerminal) {
        if (terminal) {
            System.out.print("\r\u001b[2K" + prefix() + message);
            System.out.flush();
            midLine = true;
        } else if (printWhenNotTerminal) {
            System.out.println(prefix() + message);
        }
    }

    public synchronized void warn(String message) {
        endLine();
        System.out.println();
        System.out.println("!!! WARNING: " + message);
        System.out.println();
    }

    private void endLine() {
        if (midLine) {
            System.out.println();
            midLine = false;
        }
    }

    private String prefix() {
        long now = System.nanoTime();
        long elapsed = Duration.ofNanos(now - startNanos).toSeconds();
        Eta current = eta;
        String left = current == null ? "" : ", ~" + clock(current.secondsLeft(now)) + " left";
        return "[" + clock(elapsed) + left + "] ";
    }

    private static String clock(long seconds) {
        return String.format("%02d:%02d", seconds / 60, seconds % 60);
    }
}
