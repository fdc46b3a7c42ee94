package io.threadlab.experiment.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A run's steps in order, as the manifest records them. */
public record Schedule(List<Step> steps) {

    public Schedule {
        steps = List.copyOf(steps);
    }

    public int estimatedSeconds() {
        return steps.stream().mapToInt(Step::estimatedSeconds).sum();
    }

    /** The manifest's form: one entry per step. */
    public List<Map<String, Object>> describe() {
        return steps.stream().map(step -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("kind", step.kind());
            entry.put("what", step.describe());
            entry.put("estimated_seconds", step.estimatedSeconds());
            return entry;
        }).toList();
    }
}
