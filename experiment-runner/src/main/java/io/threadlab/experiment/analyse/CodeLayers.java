package io.threadlab.experiment.analyse;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Which layer a class belongs to, by its name. Drawn from the stack traces of real recordings of the four variants
 * (Quarkus 3.27, Vert.x 4.5, Netty 4.1, RESTEasy classic and Quarkus REST).
 * <p>
 * Some code serves both sides of a request: Netty's HTTP codec and parts of Vert.x's HTTP code decode and encode for
 * the HTTP server and for the HTTP client alike, and the JAX-RS and RESTEasy helpers work for the REST framework and
 * the REST client alike. Such a class is <em>shared</em>: the stack below it says which side called it.
 */
final class CodeLayers {

    /** Which side of a request a class marks, when a shared frame above it waits to be resolved. */
    enum Side { CLIENT, SERVER, NONE }

    /**
     * @param own    the layer a frame of this class decides, or null when it decides nothing by itself (JDK, shared)
     * @param shared for a shared class, its layer when the server side called it (also when no side is found)
     * @param side   the side this class marks
     */
    record Kind(Layer own, Layer shared, Side side) {

        static Kind of(Layer layer) {
            Side side = switch (layer) {
                case REST_CLIENT -> Side.CLIENT;
                case HTTP_SERVER, REST_SERVER -> Side.SERVER;
                default -> Side.NONE;
            };
            return new Kind(layer, null, side);
        }

        static Kind sharedWith(Layer serverSide) {
            return new Kind(null, serverSide, Side.NONE);
        }

        static final Kind JDK = new Kind(null, null, Side.NONE);
    }

    private static final Kind HTTP_SHARED = Kind.sharedWith(Layer.HTTP_SERVER);
    private static final Kind REST_SHARED = Kind.sharedWith(Layer.REST_SERVER);

    /** First matching prefix wins, so the specific come before the general. */
    private static final List<Map.Entry<String, Kind>> RULES = List.of(
            rule("java.", Kind.JDK), rule("jdk.", Kind.JDK), rule("sun.", Kind.JDK), rule("com.sun.", Kind.JDK),
            rule("io.threadlab.", Kind.of(Layer.LAB)),
            rule("com.fasterxml.jackson.", Kind.of(Layer.JSON)),
            rule("io.vertx.core.json.", Kind.of(Layer.JSON)),
            rule("io.micrometer.", Kind.of(Layer.METRICS)),
            rule("io.quarkus.micrometer.", Kind.of(Layer.METRICS)),
            // Netty's HTTP codec: the client's is HttpClientCodec, a combined handler; Vert.x's server adds its
            // decoder and encoder as separate handlers, so a combined handler below a codec frame means the client.
            rule("io.netty.handler.codec.http.HttpClientCodec", Kind.of(Layer.REST_CLIENT)),
            rule("io.netty.channel.CombinedChannelDuplexHandler", new Kind(Layer.VERTX_NETTY, null, Side.CLIENT)),
            rule("io.netty.handler.codec.", HTTP_SHARED),
            rule("io.vertx.core.net.impl.pool.", Kind.of(Layer.REST_CLIENT)), // the HTTP client's connection pool
            rule("io.vertx.ext.web.client.", Kind.of(Layer.REST_CLIENT)),
            rule("io.vertx.ext.web.", Kind.of(Layer.HTTP_SERVER)), // Quarkus routes requests with Vert.x Web
            rule("io.quarkus.vertx.http.", Kind.of(Layer.HTTP_SERVER)),
            rule("org.jboss.resteasy.client.", Kind.of(Layer.REST_CLIENT)),
            rule("org.jboss.resteasy.microprofile.", Kind.of(Layer.REST_CLIENT)),
            rule("org.jboss.resteasy.reactive.client.", Kind.of(Layer.REST_CLIENT)),
            rule("org.apache.http.", Kind.of(Layer.REST_CLIENT)),
            rule("io.quarkus.restclient.", Kind.of(Layer.REST_CLIENT)),
            rule("io.quarkus.rest.client.", Kind.of(Layer.REST_CLIENT)),
            rule("io.quarkus.jaxrs.client.", Kind.of(Layer.REST_CLIENT)),
            rule("org.eclipse.microprofile.rest.client.", Kind.of(Layer.REST_CLIENT)),
            rule("jakarta.ws.rs.", REST_SHARED),
            rule("org.jboss.resteasy.reactive.server.", Kind.of(Layer.REST_SERVER)),
            rule("org.jboss.resteasy.reactive.", REST_SHARED),
            rule("io.quarkus.resteasy.reactive.common.", REST_SHARED),
            rule("io.quarkus.resteasy.common.", REST_SHARED),
            rule("io.quarkus.resteasy.", Kind.of(Layer.REST_SERVER)),
            rule("org.jboss.resteasy.specimpl.", REST_SHARED),
            rule("org.jboss.resteasy.util.", REST_SHARED),
            rule("org.jboss.resteasy.spi.", REST_SHARED),
            rule("org.jboss.resteasy.core.providerfactory.", REST_SHARED),
            rule("org.jboss.resteasy.core.messagebody.", REST_SHARED),
            rule("org.jboss.resteasy.core.interception.jaxrs.Abstract", REST_SHARED),
            rule("org.jboss.resteasy.core.ResteasyContext", REST_SHARED),
            rule("org.jboss.resteasy.plugins.providers.", REST_SHARED),
            rule("org.jboss.resteasy.", Kind.of(Layer.REST_SERVER)));

    /** Vert.x HTTP classes named for neither side but used by one only. */
    private static final Set<String> VERTX_CLIENT = Set.of("HttpChannelConnector", "EndpointKey", "HttpRequestHead",
            "HttpResponseHead", "AssembledHttpRequest", "AssembledFullHttpRequest");
    private static final Set<String> VERTX_SERVER = Set.of("VertxHttpRequestDecoder", "VertxHttpResponseEncoder",
            "AssembledHttpResponse", "AssembledFullHttpResponse");

    private CodeLayers() {
    }

    /**
     * The layer of a stack, its class names leaf first: the first frame of a layer decides; a shared frame waits for
     * the first frame below it that marks a side; a stack of JDK frames only is the JDK's.
     */
    static Layer layer(List<String> classNames, Function<String, Kind> kinds) {
        Layer pending = null;
        for (String className : classNames) {
            Kind kind = kinds.apply(className);
            if (pending == null) {
                if (kind.own() != null) {
                    return kind.own();
                }
                pending = kind.shared();
            } else if (kind.side() == Side.CLIENT) {
                return Layer.REST_CLIENT;
            } else if (kind.side() == Side.SERVER) {
                return pending;
            }
        }
        return pending != null ? pending : Layer.JDK;
    }

    static Kind of(String className) {
        if (className.startsWith("io.vertx.core.http.")) {
            return vertxHttp(className);
        }
        for (Map.Entry<String, Kind> rule : RULES) {
            if (className.startsWith(rule.getKey())) {
                return rule.getValue();
            }
        }
        if (className.startsWith("io.vertx.") || className.startsWith("io.netty.")) {
            return Kind.of(Layer.VERTX_NETTY);
        }
        return Kind.of(Layer.QUARKUS); // Quarkus, Arc, SmallRye, JBoss threads and logging, and any other library
    }

    /** Vert.x names its HTTP classes for their side (Http1xClientConnection, Http1xServerRequest, ...). */
    private static Kind vertxHttp(String className) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        int nested = simple.indexOf('$');
        String outer = nested < 0 ? simple : simple.substring(0, nested);
        if (outer.contains("Client") || VERTX_CLIENT.contains(outer)) {
            return Kind.of(Layer.REST_CLIENT);
        }
        if (outer.contains("Server") || VERTX_SERVER.contains(outer)) {
            return Kind.of(Layer.HTTP_SERVER);
        }
        return HTTP_SHARED;
    }

    private static Map.Entry<String, Kind> rule(String prefix, Kind kind) {
        return Map.entry(prefix, kind);
    }
}
