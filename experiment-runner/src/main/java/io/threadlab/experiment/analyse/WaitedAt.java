package io.threadlab.experiment.analyse;

import java.util.List;

/**
 * Where a recording's threads waited, every group's.
 *
 * @param monitorEnterSites the top sites of monitor contention (jdk.JavaMonitorEnter), by total wait
 * @param monitorWaitSites  the top sites of Object.wait (jdk.JavaMonitorWait), by total wait
 * @param parkSites         the top park sites (jdk.ThreadPark), by total wait
 * @param workerFutureParks the worker threads' parks on a future: waiting for an asynchronous client's reply
 */
public record WaitedAt(List<WaitSites.Site> monitorEnterSites, List<WaitSites.Site> monitorWaitSites,
                       List<WaitSites.Site> parkSites, WaitSites.Site workerFutureParks) {
}
