package io.threadlab.experiment.load;

import java.util.List;

/**
 * What one window measured: the readings at its two edges, the load's own figures, each second's requests and CPU
 * per request (the closed model; none for the open model), its settle.
 */
record Measured(Edge before, Edge after, LoadFigures load, List<Double> perSecond, List<Double> cpuPerSecond,
                Settled settled) {
}
