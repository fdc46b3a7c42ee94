package io.threadlab.experiment.load;

/**
 * How the settle phase before a window ended: after how long, whether the compiler had gone quiet, and whether every
 * user had been answered since it began (a new load, or a new delay, reaches its steady state only then).
 */
public record Settled(double seconds, boolean quiet, boolean answeredEveryUser) {
}
