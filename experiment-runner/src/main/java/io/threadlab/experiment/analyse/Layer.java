package io.threadlab.experiment.analyse;

/**
 * Where CPU goes, by the code that spends it: the layers a request passes through, one for each execution sample
 * by the frames on its stack; {@link #JVM_THREADS} is the CPU of the JVM's own threads, which samples never see.
 */
public enum Layer {
    HTTP_SERVER("HTTP server"),
    REST_SERVER("REST framework"),
    REST_CLIENT("REST client + HTTP client"),
    JSON("JSON"),
    METRICS("metrics"),
    VERTX_NETTY("Vert.x/Netty other"),
    LAB("lab code"),
    QUARKUS("Quarkus/Arc/SmallRye other"),
    JDK("JDK"),
    JVM_THREADS("JIT, GC and VM threads");

    private final String label;

    Layer(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
