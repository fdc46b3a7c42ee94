package io.threadlab.experiment.analyse;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every mistake rule, in the order the verdicts name what they find: the event loops' (a blocking read, a blocking
 * join, JDBC, a blocking call Quarkus refuses), the pools' (a starved worker pool, a capped connection pool seen in
 * the recording or else at the delay service, a database pool that sets the pace or asks for more connections than
 * PostgreSQL has), CPU-heavy request code, Hibernate's N+1, and the virtual threads' (pinning, blocking under a
 * monitor, native calls). A new rule goes in its family's class, and here.
 */
final class MistakeRules {

    private MistakeRules() {
    }

    /** The mistakes this recording shows, the most telling first. */
    static List<Mistakes.Mistake> of(RecordingAnalysis a) {
        return Stream.of(EventLoopMistakes.blockingEventLoop(a), EventLoopMistakes.blockingJoinOnEventLoop(a),
                        EventLoopMistakes.jdbcOnEventLoop(a), EventLoopMistakes.blockingRefusedOnEventLoop(a),
                        PoolMistakes.workerStarvation(a),
                        PoolMistakes.connectionPoolCap(a).or(() -> PoolMistakes.clientPoolCap(a)),
                        PoolMistakes.databasePoolCap(a), PoolMistakes.refusedConnections(a),
                        CpuMistakes.onEventLoop(a), CpuMistakes.onVirtualThreads(a), OrmMistakes.nPlusOne(a),
                        VirtualThreadMistakes.pinning(a), VirtualThreadMistakes.synchronizedWithoutPinning(a),
                        VirtualThreadMistakes.nativeCallOnVirtualThread(a))
                .flatMap(Optional::stream).toList();
    }
}
