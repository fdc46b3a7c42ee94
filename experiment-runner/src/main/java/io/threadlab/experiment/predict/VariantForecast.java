package io.threadlab.experiment.predict;

import io.threadlab.experiment.plan.Point;

import java.util.List;

/**
 * What {@code ./experiment predict} says of one variant: the point it was asked at, the model's forecast there, and
 * every assumption beyond the calibration, in words (the model's own and the point's).
 */
public record VariantForecast(Calibrated calibrated, Point at, Forecast forecast, List<String> notes) {

    public VariantForecast {
        notes = List.copyOf(notes);
    }

    public String variant() {
        return calibrated.variant();
    }

    /** The model the forecast came from (a forecast is only made from a fitted one). */
    public CapacityModel model() {
        return calibrated.fit().model().orElseThrow();
    }
}
