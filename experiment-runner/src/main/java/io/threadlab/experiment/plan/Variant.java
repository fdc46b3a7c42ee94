package io.threadlab.experiment.plan;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A system under test: which module runs, where it listens, what k6 calls, and what the variant is for. The three
 * design-card variants answer the question; the control separates the stack's cost from the threading model's; the
 * mistakes show what each model costs when used wrongly, each against the correct variant it spoils.
 *
 * @param properties extra Quarkus settings of this variant only (beyond the knobs every variant gets)
 * @param jvmOptions extra JVM options of this variant only
 * @param spoils     for a mistake, the label of the correct variant (or reference) it is measured against
 */
public record Variant(String label, String module, int port, String path, Role role, Map<String, String> properties,
                      List<String> jvmOptions, String spoils) {

    public enum Role {
        /** One of the design card's three threading models. */
        MODEL,
        /** The imperative threading model on the reactive variants' stack: tells stack from model. */
        CONTROL,
        /** A common way to use a model wrongly. */
        MISTAKE,
        /** The right way to do what a mistake does wrongly, when no design-card variant does the same work. */
        REFERENCE
    }

    public static final Variant IMPERATIVE = model("imperative", "imperative-service", 8081);
    public static final Variant REACTIVE = model("reactive", "reactive-service", 8082);
    public static final Variant VIRTUAL_THREAD = model("virtual-thread", "virtual-thread-service", 8083);
    public static final Variant IMPERATIVE_REST = new Variant("imperative-rest", "imperative-rest-service", 8084,
            "/api", Role.CONTROL, Map.of(), List.of(), null);

    /** The mistakes gallery: each on a port of its own, so that all can run side by side. */
    public static final List<Variant> MISTAKES = List.of(
            mistake("blocking-event-loop", 8091, "/mistakes/blocking-event-loop", "reactive"),
            new Variant("default-connection-pool", "imperative-service", 8092, "/api", Role.MISTAKE,
                    Map.of("quarkus.rest-client.delay.connection-pool-size", "50"), List.of(), "imperative"),
            new Variant("cpu-on-worker", "mistakes-service", 8093, "/mistakes/cpu/worker", Role.REFERENCE, Map.of(),
                    List.of(), null),
            mistake("cpu-on-event-loop", 8094, "/mistakes/cpu/event-loop", "cpu-on-worker"),
            mistake("cpu-on-virtual-thread", 8095, "/mistakes/cpu/virtual-thread", "cpu-on-worker"),
            mistake("synchronized-virtual-thread", 8096, "/mistakes/pinning/synchronized", "virtual-thread"),
            mistake("pinned-class-init", 8097, "/mistakes/pinning/class-init", "virtual-thread"),
            new Variant("native-call-on-virtual-thread", "mistakes-service", 8098, "/mistakes/native-call",
                    Role.MISTAKE, Map.of(), List.of("--enable-native-access=ALL-UNNAMED"), "virtual-thread"));

    private static final List<Variant> ALL = Stream.concat(
            Stream.of(IMPERATIVE, REACTIVE, VIRTUAL_THREAD, IMPERATIVE_REST), MISTAKES.stream()).toList();

    public Variant {
        properties = Map.copyOf(properties);
        jvmOptions = List.copyOf(jvmOptions);
    }

    private static Variant model(String label, String module, int port) {
        return new Variant(label, module, port, "/api", Role.MODEL, Map.of(), List.of(), null);
    }

    private static Variant mistake(String label, int port, String path, String spoils) {
        return new Variant(label, "mistakes-service", port, path, Role.MISTAKE, Map.of(), List.of(), spoils);
    }

    public static List<Variant> all() {
        return ALL;
    }

    /** The mistakes and what they are measured against, correct variants first: what {@code --mistakes} runs. */
    public static List<Variant> mistakesWithTheirReferences() {
        List<String> spoiled = MISTAKES.stream().map(Variant::spoils).filter(s -> s != null).distinct().toList();
        return Stream.concat(ALL.stream().filter(v -> v.role() != Role.MISTAKE && spoiled.contains(v.label())),
                MISTAKES.stream().filter(v -> v.role() == Role.MISTAKE)).toList();
    }

    public static Variant fromLabel(String label) {
        return ALL.stream().filter(v -> v.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown variant '" + label + "'; choose from "
                        + labels()));
    }

    /** The variant labels, for messages. */
    public static String labels() {
        return ALL.stream().map(Variant::label).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return label;
    }
}
