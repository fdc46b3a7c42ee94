package io.threadlab.api;

/** The part of the delay service's reply that the variants use. */
public record DelayReply(String message) {
}
