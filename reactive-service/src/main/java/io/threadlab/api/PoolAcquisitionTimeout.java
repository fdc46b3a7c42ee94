package io.threadlab.api;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnectOptions;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The reactive pool as Quarkus configures it, plus the acquisition timeout that Quarkus 3.27 has no key for: the
 * Vert.x pool waits 30 s for a free connection by default (PoolOptions' connectionTimeout), Agroal 5 s; with this, both
 * wait lab.db.acquisition-timeout-ms, and a request that got none is a 503 in every variant.
 */
@Singleton
public class PoolAcquisitionTimeout implements PgPoolCreator {

    @ConfigProperty(name = "lab.db.acquisition-timeout-ms")
    int acquisitionTimeoutMs;

    @Override
    public Pool create(Input input) {
        PoolOptions options = input.poolOptions()
                .setConnectionTimeout(acquisitionTimeoutMs).setConnectionTimeoutUnit(TimeUnit.MILLISECONDS);
        return PgBuilder.pool().with(options)
                .connectingTo(List.<SqlConnectOptions>copyOf(input.pgConnectOptionsList()))
                .using(input.vertx())
                .build();
    }
}
