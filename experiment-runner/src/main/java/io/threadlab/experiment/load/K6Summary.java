package io.threadlab.experiment.load;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.threadlab.experiment.collect.OpenStep;

/** The compact summary written by the lab's k6 scripts ({@code k6/lib.js}); a missing percentile is null. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record K6Summary(String variant, String scenario,
                        @JsonProperty("duration_seconds") Double durationSeconds,
                        long requests,
                        @JsonProperty("requests_per_second") Double requestsPerSecond,
                        @JsonProperty("p50_ms") Double p50Ms,
                        @JsonProperty("p90_ms") Double p90Ms,
                        @JsonProperty("p99_ms") Double p99Ms,
                        @JsonProperty("max_ms") Double maxMs,
                        long errors,
                        @JsonProperty("error_causes") java.util.Map<String, Long> errorCauses,
                        @JsonProperty("dropped_iterations") long droppedIterations,
                        List<OpenStep> steps,
                        Burst burst) {

    /** What k6/burst.js adds: its burst's own figures (null from the other scripts). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Burst(long requests, long senders, long sent,
                        @JsonProperty("time_to_last_answer_ms") Double timeToLastAnswerMs,
                        @JsonProperty("max_fire_lag_ms") Double maxFireLagMs,
                        @JsonProperty("late_senders") long lateSenders,
                        @JsonProperty("preopen_failed") long preopenFailed) {
    }

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

    public static K6Summary read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new IOException("k6 wrote no summary at " + file);
        }
        return JSON.readValue(file.toFile(), K6Summary.class);
    }
}
