package io.threadlab.experiment.analyse;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Stacks (class names, leaf first, shortened) as they appear in real recordings of the four variants. */
class CodeLayersTest {

    private static Layer layer(String... classNamesLeafFirst) {
        return CodeLayers.layer(List.of(classNamesLeafFirst), CodeLayers::of);
    }

    private static final String[] EVENT_LOOP_READ = {"io.netty.channel.AbstractChannelHandlerContext",
            "io.netty.channel.DefaultChannelPipeline$HeadContext", "io.netty.channel.DefaultChannelPipeline",
            "io.netty.channel.nio.AbstractNioByteChannel$NioByteUnsafe", "io.netty.channel.nio.NioEventLoop",
            "io.netty.util.concurrent.SingleThreadEventExecutor$4", "java.lang.Thread"};

    private static String[] readingThrough(String... handlers) {
        String[] stack = new String[handlers.length + EVENT_LOOP_READ.length];
        System.arraycopy(handlers, 0, stack, 0, handlers.length);
        System.arraycopy(EVENT_LOOP_READ, 0, stack, handlers.length, EVENT_LOOP_READ.length);
        return stack;
    }

    @Test
    void nettysHttpCodecIsTheServersUnlessTheClientsCodecIsBelowIt() {
        // server: Vert.x adds its request decoder as a handler of its own
        assertThat(layer(readingThrough("java.util.AbstractCollection", "io.netty.handler.codec.http.HttpObjectDecoder",
                "io.netty.handler.codec.ByteToMessageDecoder"))).isEqualTo(Layer.HTTP_SERVER);
        assertThat(layer(readingThrough("io.netty.handler.codec.http.HttpRequestDecoder",
                "io.vertx.core.http.impl.VertxHttpRequestDecoder", "io.netty.handler.codec.http.HttpObjectDecoder",
                "io.netty.handler.codec.ByteToMessageDecoder"))).isEqualTo(Layer.HTTP_SERVER);
        // client: HttpClientCodec, a combined handler, with or without its decoder's own frame
        assertThat(layer(readingThrough("io.netty.handler.codec.http.HttpObjectDecoder",
                "io.netty.handler.codec.http.HttpClientCodec$Decoder", "io.netty.handler.codec.ByteToMessageDecoder",
                "io.netty.channel.CombinedChannelDuplexHandler"))).isEqualTo(Layer.REST_CLIENT);
        assertThat(layer(readingThrough("io.netty.handler.codec.http.DefaultHttpHeaders",
                "io.netty.handler.codec.http.HttpObjectDecoder", "io.netty.handler.codec.ByteToMessageDecoder",
                "io.netty.channel.CombinedChannelDuplexHandler"))).isEqualTo(Layer.REST_CLIENT);
        // client writing its request: the encoder below Vert.x's client connection
        assertThat(layer("io.netty.handler.codec.http.HttpObjectEncoder", "io.netty.channel.CombinedChannelDuplexHandler",
                "io.netty.channel.AbstractChannelHandlerContext", "io.vertx.core.net.impl.ConnectionBase",
                "io.vertx.core.http.impl.Http1xClientConnection")).isEqualTo(Layer.REST_CLIENT);
    }

    @Test
    void vertxHttpClassesGoByTheSideTheirNameSays() {
        assertThat(layer("io.vertx.core.http.impl.Http1xClientConnection$StreamImpl")).isEqualTo(Layer.REST_CLIENT);
        assertThat(layer("io.vertx.core.http.impl.HttpClientRequestBase")).isEqualTo(Layer.REST_CLIENT);
        assertThat(layer("io.vertx.core.http.impl.Http1xServerResponse")).isEqualTo(Layer.HTTP_SERVER);
        assertThat(layer("io.vertx.core.http.impl.HttpUtils", "io.vertx.core.http.impl.HttpClientImpl"))
                .isEqualTo(Layer.REST_CLIENT);
        assertThat(layer("io.vertx.core.http.impl.HttpUtils", "io.vertx.core.http.impl.Http1xServerRequest"))
                .isEqualTo(Layer.HTTP_SERVER);
        assertThat(layer("io.vertx.core.net.impl.pool.SimpleConnectionPool")).isEqualTo(Layer.REST_CLIENT);
        assertThat(layer("io.quarkus.vertx.http.runtime.filters.AbstractResponseWrapper")).isEqualTo(Layer.HTTP_SERVER);
        assertThat(layer("io.vertx.ext.web.impl.RouterImpl")).isEqualTo(Layer.HTTP_SERVER);
    }

    @Test
    void restHelpersServeWhicheverSideCalledThem() {
        // classic RESTEasy: the client builds its URI with the same helpers the server uses
        assertThat(layer("org.jboss.resteasy.specimpl.ResteasyUriBuilderImpl",
                "org.jboss.resteasy.client.jaxrs.internal.ClientInvocation", "io.threadlab.api.ApiResource",
                "org.jboss.resteasy.core.ResourceMethodInvoker")).isEqualTo(Layer.REST_CLIENT);
        assertThat(layer("jakarta.ws.rs.core.AbstractMultivaluedMap", "org.jboss.resteasy.core.ServerResponseWriter"))
                .isEqualTo(Layer.REST_SERVER);
        assertThat(layer("org.jboss.resteasy.reactive.common.util.MultivaluedTreeMap",
                "org.jboss.resteasy.reactive.client.impl.ClientRequestContextImpl")).isEqualTo(Layer.REST_CLIENT);
        assertThat(layer("org.jboss.resteasy.reactive.server.handlers.ClassRoutingHandler"))
                .isEqualTo(Layer.REST_SERVER);
        assertThat(layer("io.quarkus.resteasy.runtime.standalone.VertxHttpResponse")).isEqualTo(Layer.REST_SERVER);
        assertThat(layer("org.apache.http.impl.io.SessionOutputBufferImpl")).isEqualTo(Layer.REST_CLIENT);
        assertThat(layer("io.quarkus.restclient.runtime.QuarkusProxyInvocationHandler")).isEqualTo(Layer.REST_CLIENT);
        // a shared helper with no side below it counts for the server, the side that always runs
        assertThat(layer("jakarta.ws.rs.core.Response$ResponseBuilder", "java.lang.Thread"))
                .isEqualTo(Layer.REST_SERVER);
    }

    @Test
    void theFirstFrameOfALayerFromTheLeafDecides() {
        assertThat(layer("java.lang.String", "com.fasterxml.jackson.core.json.UTF8JsonGenerator",
                "org.jboss.resteasy.plugins.providers.jackson.ResteasyJackson2Provider")).isEqualTo(Layer.JSON);
        assertThat(layer("io.micrometer.core.instrument.Tags", "io.quarkus.micrometer.runtime.binder.vertx"
                + ".VertxHttpServerMetrics", "io.vertx.core.http.impl.Http1xServerConnection")).isEqualTo(Layer.METRICS);
        assertThat(layer("io.threadlab.api.ApiReply$ServedBy", "org.jboss.resteasy.core.ResourceMethodInvoker"))
                .isEqualTo(Layer.LAB);
        assertThat(layer("io.netty.channel.nio.SelectedSelectionKeySetSelector", "io.netty.channel.nio.NioEventLoop"))
                .isEqualTo(Layer.VERTX_NETTY);
        assertThat(layer("org.jboss.threads.EnhancedQueueExecutor", "java.lang.Thread")).isEqualTo(Layer.QUARKUS);
        assertThat(layer("io.smallrye.mutiny.operators.uni.UniOnItemTransform")).isEqualTo(Layer.QUARKUS);
        assertThat(layer("jdk.internal.misc.Unsafe", "java.util.concurrent.ForkJoinPool", "java.lang.Thread"))
                .isEqualTo(Layer.JDK);
        assertThat(layer()).isEqualTo(Layer.JDK);
    }

    @Test
    void sitesShortenToTheInnermostNames() {
        assertThat(StackFacts.shortForm("java.lang.Object",
                "io.netty.channel.nio.SelectedSelectionKeySetSelector.select:62"))
                .isEqualTo("Object @ SelectedSelectionKeySetSelector.select");
        assertThat(StackFacts.shortForm("io.threadlab.api.KnownCostWorkloads$ContendedLedger",
                "io.threadlab.api.KnownCostWorkloads$ContendedLedger.appendEntry:31"))
                .isEqualTo("ContendedLedger @ ContendedLedger.appendEntry");
        assertThat(StackFacts.simpleName("io.vertx.core.http.impl.Http1xClientConnection$StreamImpl$$Lambda.0x5b434e60"))
                .isEqualTo("StreamImpl$$Lambda");
        assertThat(StackFacts.simpleName("com.example.Outer$1")).isEqualTo("Outer$1");
    }
}
