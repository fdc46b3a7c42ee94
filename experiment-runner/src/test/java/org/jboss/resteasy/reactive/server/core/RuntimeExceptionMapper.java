package org.jboss.resteasy.reactive.server.core;

import io.quarkus.runtime.BlockingOperationNotAllowedException;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * A stand-in for Quarkus REST's exception mapper, so that a test can record the refusal of a blocking call on the
 * event loop: for {@link BlockingOperationNotAllowedException} it logs, in {@code logBlockingErrorIfRequired}, the
 * ERROR line and stack trace the real one writes for every such request; hence RESTEasy Reactive's package. It is not
 * on the runner's class path.
 */
public final class RuntimeExceptionMapper {

    private RuntimeExceptionMapper() {
    }

    /** The text the request fails with: the error line, with the stack trace when the call was refused. */
    public static String mapException(Throwable failure) {
        return logBlockingErrorIfRequired(failure);
    }

    private static String logBlockingErrorIfRequired(Throwable failure) {
        StringWriter log = new StringWriter();
        if (failure instanceof BlockingOperationNotAllowedException) {
            log.append("A blocking operation occurred on the IO thread. This likely means you need to annotate ")
                    .append(failure.getStackTrace()[0].toString()).append(" with @Blocking.\n");
            failure.printStackTrace(new PrintWriter(log));
        }
        return log.toString();
    }
}
