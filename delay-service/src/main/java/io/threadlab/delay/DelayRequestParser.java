package io.threadlab.delay;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns the raw {@code ms} query value into a wait, rejecting anything that is not a whole number in range. A request
 * without one waits the default, which starts at {@code lab.delay.default-ms} and can be changed while the service
 * runs: the variants all send the same {@code GET /delay}, so the runner can measure warm JVMs at several downstream
 * delays without restarting them or changing what they send.
 */
@ApplicationScoped
public class DelayRequestParser {

    private final AtomicLong defaultMs;
    private final long maxMs;

    DelayRequestParser(@ConfigProperty(name = "lab.delay.default-ms") long defaultMs,
                       @ConfigProperty(name = "lab.delay.max-ms") long maxMs) {
        this.defaultMs = new AtomicLong(defaultMs);
        this.maxMs = maxMs;
    }

    public long parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return defaultMs.get();
        }
        return inRange(raw);
    }

    public long defaultMs() {
        return defaultMs.get();
    }

    /** Sets the wait of requests that give none; the same rules as a request's own value. */
    public long setDefault(String raw) {
        if (raw == null || raw.isBlank()) {
            throw new BadDelayException(String.valueOf(raw), maxMs);
        }
        long ms = inRange(raw);
        defaultMs.set(ms);
        return ms;
    }

    private long inRange(String raw) {
        long ms;
        try {
            ms = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw new BadDelayException(raw, maxMs);
        }
        if (ms < 0 || ms > maxMs) {
            throw new BadDelayException(raw, maxMs);
        }
        return ms;
    }
}
