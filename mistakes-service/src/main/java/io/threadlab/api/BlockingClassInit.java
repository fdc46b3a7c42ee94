package io.threadlab.api;

/**
 * Never loaded under this name: {@link ClassInitCall} reads these bytes and defines a fresh hidden copy of the class
 * per request, whose static initialiser then runs the request's downstream call.
 */
final class BlockingClassInit {

    static {
        ClassInitCall.runCurrent();
    }

    private BlockingClassInit() {
    }
}
