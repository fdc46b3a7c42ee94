package io.threadlab.experiment.load;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LiveCountersTest {

    @Test
    void sumsEveryApiSeriesAndNothingElse() {
        String metrics = """
                # TYPE http_server_requests_seconds summary
                http_server_requests_seconds_count{method="GET",outcome="SUCCESS",status="200",uri="/api"} 1200.0
                http_server_requests_seconds_count{method="GET",outcome="SERVER_ERROR",status="504",uri="/api"} 3.0
                http_server_requests_seconds_count{method="GET",outcome="SUCCESS",status="200",uri="/q/metrics"} 40.0
                http_server_requests_seconds_sum{method="GET",outcome="SUCCESS",status="200",uri="/api"} 15.5
                """;
        assertThat(LiveCounters.apiRequests(metrics)).isEqualTo(1203.0);
        assertThat(LiveCounters.apiRequests("")).isZero();
    }

    @Test
    void readsJitTimeWhenPublishedAndSaysWhenNot() {
        String metrics = """
                # TYPE jvm_compilation_time_ms_total counter
                jvm_compilation_time_ms_total{compiler="HotSpot 64-Bit Tiered Compilers"} 5321.0
                """;
        assertThat(LiveCounters.compilationMillis(metrics)).isEqualTo(5321.0);
        assertThat(LiveCounters.compilationMillis("jvm_threads_live_threads 30.0\n")).isNaN();
    }
}
