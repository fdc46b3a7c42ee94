package io.quarkus.runtime;

/**
 * A stand-in for what Quarkus throws when code on an I/O thread makes a call it knows blocks (a JTA transaction,
 * Hibernate ORM's session), so that a test can record the refusal without Quarkus; hence Quarkus' package. Quarkus is
 * not on the runner's class path.
 */
public class BlockingOperationNotAllowedException extends IllegalStateException {

    public BlockingOperationNotAllowedException(String message) {
        super(message);
    }
}
