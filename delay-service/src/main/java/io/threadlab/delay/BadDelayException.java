package io.threadlab.delay;

/** A {@code ms} value that is not an integer from 0 to the configured maximum. */
public class BadDelayException extends RuntimeException {

    private final String value;

    public BadDelayException(String value, long maxMs) {
        super("ms must be an integer from 0 to " + maxMs);
        this.value = value;
    }

    public String value() {
        return value;
    }
}
