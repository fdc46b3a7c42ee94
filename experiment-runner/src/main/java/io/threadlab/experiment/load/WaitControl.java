package io.threadlab.experiment.load;

import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.process.ServiceProcess;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * The downstream's wait for the next windows, set where the downstream decides it: the delay service's default wait
 * ({@code PUT /delay/default?ms=N}) or the database's {@code lab_wait} (read by the page query's {@code pg_sleep}).
 * So the same warm JVMs are measured at several delays without a restart, and what the variants send never changes.
 */
public final class WaitControl {

    private final Map<Downstream, IntConsumer> setters = new EnumMap<>(Downstream.class);
    private final Map<Downstream, Integer> current = new EnumMap<>(Downstream.class);

    /** The delay service, started with {@code startedWithMs}. */
    public WaitControl(ServiceProcess delayService, int startedWithMs) {
        setters.put(Downstream.HTTP, ms -> delayService.put("/delay/default?ms=" + ms));
        current.put(Downstream.HTTP, startedWithMs);
    }

    /** The database's wait, set by {@code setter}; it starts at 0 ms (the query alone). */
    public void database(IntConsumer setter) {
        setters.put(Downstream.DB, setter);
        current.put(Downstream.DB, 0);
    }

    /** Sets the wait of {@code downstream} for the requests from now on; true when it changed. */
    public boolean set(Downstream downstream, int ms) {
        IntConsumer setter = setters.get(downstream);
        if (setter == null) {
            throw new IllegalStateException("no " + downstream.label() + " downstream in this run");
        }
        if (current.get(downstream) == ms) {
            return false;
        }
        setter.accept(ms);
        current.put(downstream, ms);
        return true;
    }
}
