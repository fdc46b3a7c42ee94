package io.threadlab.experiment.analyse;

import java.util.Map;

/**
 * The recording-wide numbers that the mistake rules ({@link MistakeRules}) recognise mistakes by; the per-group ones
 * are in {@link GroupStats} (request code's own samples, samples under a synchronized method, native samples).
 *
 * @param downstreamInFlight socket reads from the delay service in flight at once
 * @param poolWaits          parks waiting for a pooled connection to the delay service (a JDBC pool's are the
 *                           database's: {@link DatabasePool}), of every group, summed (named by the busiest site)
 * @param downstreamCalls    calls to the window's downstream, as far as the recording counts them: its socket
 *                           writes where every socket event was recorded, else the recorded wait that each call
 *                           makes (0 where no call waits long enough to be recorded: an event loop's)
 * @param pinnedReasons      why virtual threads pinned: the JVM's reason (JDK 24+), else the initialiser on the stack
 * @param pinnedInitialisers pins with a class initialiser on the stack, by class
 * @param eventLoopJoins     the event loops' parks on a future (jdk.ThreadPark of 1 ms or more): a thread that must
 *                           never wait, waiting for a reply
 */
public record MistakeSignals(InFlight.Summary downstreamInFlight, WaitSites.Site poolWaits, long downstreamCalls,
                             Map<String, Integer> pinnedReasons, Map<String, Integer> pinnedInitialisers,
                             WaitSites.Site eventLoopJoins) {
}
