package io.threadlab.delay;

/** What the delay service answers: the variants pass {@code message} on to their callers. */
public record DelayReply(String message, long requestedMs, double servedMs) {
}
