package io.threadlab.experiment.plan;

/**
 * Where k6 and the delay service run during the measured windows: on every CPU with the variants ({@code shared}),
 * on a CPU of their own ({@code separate}), or alternating between the two by pairs of repetitions ({@code compare}),
 * so that one run measures both on the same JVMs, each mode once on every JVM start.
 */
public enum LoadPlacement {
    SHARED, SEPARATE, COMPARE;

    /** Whether repetition {@code rep} runs with the load apart from the variants. */
    public boolean separate(int rep, int jvmStarts) {
        return switch (this) {
            case SHARED -> false;
            case SEPARATE -> true;
            case COMPARE -> (rep - 1) / jvmStarts % 2 == 0;
        };
    }

    public static LoadPlacement parse(String text) {
        for (LoadPlacement p : values()) {
            if (p.name().equalsIgnoreCase(text.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("--load-cpus must be shared, separate or compare, was '" + text + "'");
    }
}
