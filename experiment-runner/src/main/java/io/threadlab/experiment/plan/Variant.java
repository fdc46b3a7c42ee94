package io.threadlab.experiment.plan;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The three systems under test, as the design card names them, plus where each one lives and listens. */
public enum Variant {
    IMPERATIVE("imperative", "imperative-service", 8081),
    REACTIVE("reactive", "reactive-service", 8082),
    VIRTUAL_THREAD("virtual-thread", "virtual-thread-service", 8083);

    private final String label;
    private final String module;
    private final int port;

    Variant(String label, String module, int port) {
        this.label = label;
        this.module = module;
        this.port = port;
    }

    public String label() {
        return label;
    }

    public String module() {
        return module;
    }

    public int port() {
        return port;
    }

    public static Variant fromLabel(String label) {
        return Arrays.stream(values()).filter(v -> v.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown variant '" + label + "'; choose from "
                        + Arrays.stream(values()).map(Variant::label).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return label;
    }
}
