package io.threadlab.experiment.analyse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The pools' own numbers, from the scrapes at a window's edges, as Quarkus 3.27 publishes them. */
class PoolGaugesTest {

    private static final String WINDOW = "reactive-db-10ms-closed-50-jfr-1";

    /** The reactive variant's pool, with the lines of the real run's scrapes (2026-11-25T00-16-17Z). */
    private static String reactive(double queued, double active, double delayCount, double delaySum) {
        return """
                # HELP sql_pool_queue_size Number of pending elements in the waiting queue
                # TYPE sql_pool_queue_size gauge
                sql_pool_queue_size{pool_name="__vertx.DEFAULT",pool_type="sql"} %s
                sql_pool_active{pool_name="__vertx.DEFAULT",pool_type="sql"} %s
                sql_pool_queue_delay_seconds_count{pool_name="__vertx.DEFAULT",pool_type="sql"} %s
                sql_pool_queue_delay_seconds_sum{pool_name="__vertx.DEFAULT",pool_type="sql"} %s
                sql_pool_queue_delay_seconds_max{pool_name="__vertx.DEFAULT",pool_type="sql"} 4.2
                """.formatted(queued, active, delayCount, delaySum);
    }

    @Test
    void theReactiveClientsQueueIsReadAtBothEdges(@TempDir Path metrics) throws IOException {
        Files.writeString(metrics.resolve(WINDOW + "-before.prom"), reactive(27, 20, 74235, 35129.76664883));
        Files.writeString(metrics.resolve(WINDOW + "-after.prom"), reactive(24, 20, 79878, 35244.621818331));
        PoolGauges edges = PoolGauges.read(metrics, WINDOW);
        assertThat(edges.pool()).isEqualTo("the reactive client's pool");
        assertThat(edges.metric()).isEqualTo("sql_pool_queue_size");
        assertThat(edges.waitingBefore()).isEqualTo(27);
        assertThat(edges.waitingAfter()).isEqualTo(24);
        assertThat(edges.activeAfter()).isEqualTo(20);
        assertThat(edges.acquisitions()).isEqualTo(5643);
        assertThat(edges.waitedMs()).isEqualTo(114855.17);
        assertThat(edges.waitedMsPerAcquisition()).isBetween(20.35, 20.36);
    }

    @Test
    void agroalsCountsAreSummedOverItsDatasources(@TempDir Path metrics) throws IOException {
        Files.writeString(metrics.resolve(WINDOW + "-before.prom"), DatabaseWindowsTest.agroal(2, 20, 100, 1000)
                + "agroal_awaiting_count{datasource=\"other\"} 3.0\n");
        Files.writeString(metrics.resolve(WINDOW + "-after.prom"), DatabaseWindowsTest.agroal(0, 18, 150, 2000));
        PoolGauges edges = PoolGauges.read(metrics, WINDOW);
        assertThat(edges.pool()).isEqualTo("Agroal");
        assertThat(edges.waitingBefore()).isEqualTo(5);
        assertThat(edges.waitedMsPerAcquisition()).isEqualTo(20);
    }

    @Test
    void withoutBothScrapesOrWithoutAPoolThereAreNoEdges(@TempDir Path metrics) throws IOException {
        assertThat(PoolGauges.read(metrics, WINDOW)).isNull();
        Files.writeString(metrics.resolve(WINDOW + "-before.prom"), reactive(1, 1, 1, 1));
        assertThat(PoolGauges.read(metrics, WINDOW)).as("one edge only").isNull();
        Files.writeString(metrics.resolve(WINDOW + "-after.prom"), "jvm_threads_live_threads 40.0\n");
        assertThat(PoolGauges.read(metrics, WINDOW)).as("no pool at the closing edge").isNull();
    }
}
