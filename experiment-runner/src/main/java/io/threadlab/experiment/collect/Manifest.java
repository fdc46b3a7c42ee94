package io.threadlab.experiment.collect;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * manifest.json: everything needed to judge or repeat a run (versions, flags, knobs, confinement, plan, per-variant
 * sizing, warm-ups), written at the start with {@code completed: false} and rewritten as the run goes.
 */
public final class Manifest {

    private final Path file;
    private final Map<String, Object> root = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, Object> variants = new LinkedHashMap<>();
    private boolean finished;

    public Manifest(Path dir) {
        this.file = dir.resolve("manifest.json");
        root.put("completed", false);
        root.put("status", "running");
        root.put("started_at", Instant.now().toString());
        root.put("warnings", warnings);
        root.put("variants", variants);
    }

    public synchronized Manifest put(String key, Object value) {
        root.put(key, value);
        write();
        return this;
    }

    public synchronized void warn(String warning) {
        warnings.add(warning);
        write();
    }

    /** What a variant's JVM reported about itself, and how its warm-up went. */
    public synchronized void variant(String variant, Map<String, Object> facts) {
        variants.put(variant, facts);
        write();
    }

    /** Final state, once: completed, interrupted or failed (with why). Later calls are ignored. */
    public synchronized void finish(String status, String failure) {
        if (finished) {
            return;
        }
        finished = true;
        root.put("completed", "completed".equals(status));
        root.put("status", status);
        if (failure != null) {
            root.put("failure", failure);
        }
        root.put("finished_at", Instant.now().toString());
        write();
    }

    public synchronized boolean isFinished() {
        return finished;
    }

    private void write() {
        Json.write(file, root);
    }
}
