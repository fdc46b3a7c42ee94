package io.threadlab.api;

/** The contract of {@code GET /api} in every variant: the downstream's message and where the request ran. */
public record ApiReply(String message, ServedBy servedBy) {

    public record ServedBy(String thread, boolean virtual) {

        public static ServedBy currentThread() {
            Thread thread = Thread.currentThread();
            return new ServedBy(thread.getName(), thread.isVirtual());
        }
    }
}
