package io.threadlab.experiment.collect;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** One arrival-rate step of the open model, as k6's summary gives it. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OpenStep(int offeredRate, long requests, double achievedRate, Double p50Ms, Double p90Ms, Double p99Ms,
                       Double maxMs, long droppedIterations) {
}
