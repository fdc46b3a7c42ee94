package io.threadlab.experiment.analyse;

import java.util.regex.Pattern;

/**
 * What a recording's jdk.SocketRead threshold ("1 ms", "0 ms"; null where the recording does not say, made without
 * jdk.ActiveSetting) leaves in it: shorter reads are not there, the event loops' microsecond reads among them.
 */
final class SocketThreshold {

    private static final Pattern ZERO = Pattern.compile("0+\\s*[a-z]*");

    private SocketThreshold() {
    }

    /** Whether a threshold ("0 ms", "0 ns") records every event; false for an unknown one. */
    static boolean everyEvent(String threshold) {
        return threshold != null && ZERO.matcher(threshold.trim()).matches();
    }

    /** "socket events from 1 ms", for readers who would otherwise miss the reads that are not there. */
    static String events(String threshold) {
        return threshold == null ? "socket threshold not recorded"
                : everyEvent(threshold) ? "every socket event" : "socket events from " + threshold;
    }

    /** "of 1 ms or more": the socket reads a recording holds. */
    static String recorded(String threshold) {
        return threshold == null ? "long enough to be recorded" : "of " + threshold + " or more";
    }
}
