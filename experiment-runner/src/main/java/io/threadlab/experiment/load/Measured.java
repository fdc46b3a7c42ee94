package io.threadlab.experiment.load;

import java.util.List;

/** What one window measured: the readings at its two edges, the load's own figures, its seconds, its settle. */
record Measured(Edge before, Edge after, LoadFigures load, List<Double> perSecond, Settled settled) {
}
