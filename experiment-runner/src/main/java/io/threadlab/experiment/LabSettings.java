package io.threadlab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The lab's shared settings file, {@code .env} at the checkout's root: compose.yaml reads it for its ${...}, the
 * services' builds take their defaults from it, and the runner takes its axes' defaults from it (each axis names its
 * key, {@code Axis#envKey}), so that none can drift. Explicit flags still win. It is the only source of the knobs'
 * defaults: the runner has no copy of them, and without .env every knob must be given.
 */
final class LabSettings {

    private LabSettings() {
    }

    /** The settings in force, for the manifest and the axes' defaults; empty when the file is missing. */
    static Map<String, String> read() {
        try {
            return parse(Files.readString(LabHome.find().resolve(".env")));
        } catch (IOException | IllegalStateException e) {
            return Map.of();
        }
    }

    static Map<String, String> parse(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        text.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#") && l.contains("="))
                .forEach(l -> values.put(l.substring(0, l.indexOf('=')).trim(), l.substring(l.indexOf('=') + 1).trim()));
        return values;
    }
}
