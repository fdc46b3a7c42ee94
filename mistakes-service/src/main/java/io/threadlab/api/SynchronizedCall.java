package io.threadlab.api;

/**
 * One request's downstream call made while holding a monitor: a synchronized method of an object made for that
 * request alone, so nothing ever contends for it. On JDK 21 to 23 a virtual thread that blocks while holding a monitor
 * pins its carrier; since JDK 24 (JEP 491) it unmounts and frees the carrier, the monitor still held.
 * <p>
 * A synchronized method rather than a synchronized block, on purpose: a JFR stack frame carries its method's
 * modifiers, so a recording shows that the downstream call ran under a monitor; a synchronized block leaves no trace
 * in a recording.
 */
final class SynchronizedCall {

    private final DelayClient delay;

    SynchronizedCall(DelayClient delay) {
        this.delay = delay;
    }

    synchronized DelayReply call() {
        return delay.delay();
    }
}
