package io.threadlab.experiment.findings;

/**
 * Measured values on a log axis, each owning a band that reaches halfway (geometrically) to its neighbours, and as far
 * past the first and the last as the nearest edge inside: where a value between two measured ones falls. Positions
 * run from {@code start} to {@code end} (pixels; 0 and 1 for just the edges).
 */
record LogBands(double[] values, double start, double end) {

    /** The value at the lower edge of band {@code i} ({@code i} = the number of values: the last band's upper edge). */
    double edge(int i) {
        if (values.length == 1) {
            return i == 0 ? values[0] / 2 : values[0] * 2;
        }
        if (i == 0) {
            return values[0] / Math.sqrt(values[1] / values[0]);
        }
        if (i == values.length) {
            return values[i - 1] * Math.sqrt(values[i - 1] / values[i - 2]);
        }
        return Math.sqrt(values[i - 1] * values[i]);
    }

    double from(int i) {
        return position(edge(i));
    }

    double to(int i) {
        return position(edge(i + 1));
    }

    private double position(double v) {
        double low = Math.log(edge(0));
        double high = Math.log(edge(values.length));
        return start + (Math.log(v) - low) / (high - low) * (end - start);
    }
}
