package io.threadlab.experiment.collect;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/** results.json: every measured window, every JVM's warm-up (each sample), and the times to peak. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunResults(List<WindowResult> windows, List<WarmUpResult> warmUps, List<WarmUpResult> timeToPeak) {

    public RunResults {
        windows = windows == null ? List.of() : List.copyOf(windows);
        warmUps = warmUps == null ? List.of() : List.copyOf(warmUps);
        timeToPeak = timeToPeak == null ? List.of() : List.copyOf(timeToPeak);
    }
}
