package io.threadlab.api;

import io.quarkus.micrometer.runtime.binder.RestClientMetricsFilter;
import jakarta.ws.rs.client.ClientResponseContext;
import org.jboss.resteasy.reactive.client.spi.ResteasyReactiveClientRequestContext;
import org.jboss.resteasy.reactive.client.spi.ResteasyReactiveClientResponseFilter;

/**
 * Micrometer's REST-client timer, run on the event loop where the reply arrives. As Quarkus 3.27 registers it, it is
 * a plain response filter, and the Quarkus REST client hands every such filter to the worker pool: one extra worker
 * task per call in every variant on this stack, and with blocking callers a deadlock once all workers wait for
 * replies whose timer task is queued behind them (measured: permanent hang at 250 users with 200 workers). Marking it
 * thread-preserving is what later Quarkus versions do themselves (3.33.1 has it). Only in a build on 3.27 (profile
 * platform-3.27); META-INF/microprofile-config.properties beside it registers it and turns off the automatic one.
 */
public class InlineClientTimer extends RestClientMetricsFilter implements ResteasyReactiveClientResponseFilter {

    @Override
    public void filter(ResteasyReactiveClientRequestContext request, ClientResponseContext response) {
        super.filter(request, response);
    }
}
