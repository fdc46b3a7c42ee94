package io.threadlab.api;

import io.netty.util.concurrent.MultithreadEventExecutorGroup;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import javax.management.JMException;
import javax.management.ObjectName;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * What the JVM actually sized itself to, as the runner records it per variant: confinement only counts if the JVM
 * sees it (availableProcessors = 1 under a 0.5-CPU quota joined before start). And how GET /api/articles may read the
 * database in this build ({@code dataAccess}): the {@code ?access=} kinds it serves, and the settings that decide
 * what the ORM path costs, as config resolves them.
 */
@Path("/lab/runtime")
@Produces(MediaType.APPLICATION_JSON)
public class RuntimeInfoResource {

    @Inject
    Vertx vertx;

    @ConfigProperty(name = "lab.variant")
    String variant;

    @ConfigProperty(name = "quarkus.thread-pool.max-threads")
    int workerPoolMax;

    /** Where the build has Hibernate, its page reader: every build but the reactive service's on Quarkus 3.27. */
    @Inject
    Instance<HibernatePage<?>> hibernate;

    public record RuntimeInfo(String variant, long pid, int availableProcessors, int eventLoops, int workerPoolMax,
                              int carrierParallelism, String javaVersion, String javaVendor, long maxHeapBytes,
                              List<String> garbageCollectors, List<String> jvmArguments,
                              DataAccess.InForce dataAccess) {
    }

    @GET
    public RuntimeInfo runtime() {
        int cpus = Runtime.getRuntime().availableProcessors();
        return new RuntimeInfo(variant, ProcessHandle.current().pid(), cpus, eventLoops(), workerPoolMax,
                carrierParallelism(cpus), System.getProperty("java.version"), System.getProperty("java.vendor"),
                Runtime.getRuntime().maxMemory(),
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(),
                DataAccess.InForce.of(hibernate.isResolvable() ? hibernate.get() : null, ConfigProvider.getConfig()));
    }

    private int eventLoops() {
        return ((VertxInternal) vertx).getEventLoopGroup() instanceof MultithreadEventExecutorGroup group
                ? group.executorCount() : -1;
    }

    /**
     * The virtual-thread scheduler's own parallelism (JDK 24+ publishes it as an MXBean; reading it creates the
     * scheduler if no virtual thread has yet). Before JDK 24: what the JDK would choose, the property or one carrier
     * per available processor.
     */
    private static int carrierParallelism(int cpus) {
        try {
            return (Integer) ManagementFactory.getPlatformMBeanServer()
                    .getAttribute(new ObjectName("jdk.management:type=VirtualThreadScheduler"), "Parallelism");
        } catch (JMException | RuntimeException e) {
            return Integer.getInteger("jdk.virtualThreadScheduler.parallelism", cpus);
        }
    }
}
