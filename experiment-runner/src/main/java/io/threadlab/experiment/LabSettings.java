package io.threadlab.experiment;

import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The lab's shared settings file, {@code .env} at the checkout's root: compose.yaml reads it for its ${...}, and the
 * runner takes its flag defaults from it, so the two cannot drift. Explicit flags still win. It is the only source of
 * the knobs' defaults: the runner has no copy of them, and without .env every knob must be given.
 */
final class LabSettings implements CommandLine.IDefaultValueProvider {

    /** Runner option to .env key. */
    private static final Map<String, String> KEYS = Map.ofEntries(
            Map.entry("--cpus", "LAB_CPUS"),
            Map.entry("--heap", "LAB_HEAP"),
            Map.entry("--gc", "LAB_GC"),
            Map.entry("--delay-ms", "LAB_DELAY_MS"),
            Map.entry("--pool-size", "LAB_CONNECTION_POOL_SIZE"),
            Map.entry("--connect-timeout-ms", "LAB_CONNECT_TIMEOUT_MS"),
            Map.entry("--read-timeout-ms", "LAB_READ_TIMEOUT_MS"),
            Map.entry("--worker-max", "LAB_WORKER_POOL_MAX"),
            Map.entry("--db-pool-size", "LAB_DB_POOL_SIZE"),
            Map.entry("--db-cpus", "LAB_DB_CPUS"),
            Map.entry("--db-max-connections", "LAB_DB_MAX_CONNECTIONS"));

    private static final Set<String> MAP_OWN = Set.of("--delay-ms", "--pool-size");

    @Override
    public String defaultValue(CommandLine.Model.ArgSpec argSpec) {
        if (!(argSpec instanceof CommandLine.Model.OptionSpec option)) {
            return null;
        }
        String key = KEYS.get(option.longestName());
        if (key == null || MAP_OWN.contains(option.longestName()) && "map".equals(option.command().name())) {
            return null; // the map's own defaults: its grid of delays, and a pool that never caps its users
        }
        return read().get(key);
    }

    /** The settings in force, for the manifest; empty when the file is missing. */
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
