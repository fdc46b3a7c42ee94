package io.threadlab.delay;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Turns the raw {@code ms} query value into a wait, rejecting anything that is not a whole number in range. */
@ApplicationScoped
public class DelayRequestParser {

    private final long defaultMs;
    private final long maxMs;

    DelayRequestParser(@ConfigProperty(name = "lab.delay.default-ms") long defaultMs,
                       @ConfigProperty(name = "lab.delay.max-ms") long maxMs) {
        this.defaultMs = defaultMs;
        this.maxMs = maxMs;
    }

    public long parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return defaultMs;
        }
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
