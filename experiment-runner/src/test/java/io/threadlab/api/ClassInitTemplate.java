package io.threadlab.api;

/**
 * Never loaded by name: {@link MistakeWorkloads} reads these bytes and defines hidden copies of the class, each of
 * whose static initialiser waits the downstream's 10 ms on the thread that initialises it.
 */
final class ClassInitTemplate {

    static {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private ClassInitTemplate() {
    }
}
