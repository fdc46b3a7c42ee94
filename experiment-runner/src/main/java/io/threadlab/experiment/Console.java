package io.threadlab.experiment;

import java.time.Duration;

/** Progress on the console: elapsed and estimated remaining time, the phase, and live throughput. */
final class Console {

    private final long startNanos = System.nanoTime();
    private final boolean terminal = System.console() != null;
    private int estimatedSeconds;
    private boolean midLine;

    void estimate(int seconds) {
        this.estimatedSeconds = seconds;
    }

    /** A line that stays. */
    synchronized void say(String message) {
        endLine();
        System.out.println(prefix() + message);
    }

    /** A status that replaces itself on a terminal, and is printed now and then otherwise. */
    synchronized void status(String message, boolean printWhenNotTerminal) {
        if (terminal) {
            System.out.print("\r\u001b[2K" + prefix() + message);
            System.out.flush();
            midLine = true;
        } else if (printWhenNotTerminal) {
            System.out.println(prefix() + message);
        }
    }

    synchronized void warn(String message) {
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
        long elapsed = Duration.ofNanos(System.nanoTime() - startNanos).toSeconds();
        String left = estimatedSeconds > 0 ? ", ~" + clock(Math.max(0, estimatedSeconds - elapsed)) + " left" : "";
        return "[" + clock(elapsed) + left + "] ";
    }

    private static String clock(long seconds) {
        return String.format("%02d:%02d", seconds / 60, seconds % 60);
    }
}
