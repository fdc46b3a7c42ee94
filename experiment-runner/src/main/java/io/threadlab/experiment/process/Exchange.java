package io.threadlab.experiment.process;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP exchange with a deadline over the whole of it, headers and body. The JDK client's own request timeout
 * ends when the headers arrive: a service that sent its headers and then stalled in its body held the runner's main
 * thread for 15 minutes (the delay service's /q/metrics during a map's warm-up, while curl got the same URL in 21 ms).
 * Here the exchange is cancelled when the deadline passes, whatever it was waiting for.
 */
public final class Exchange {

    private Exchange() {
    }

    /**
     * The exchange, not waited for: the future ends with the whole answer, with an HttpTimeoutException at the
     * deadline, or with the client's own error; at the deadline, or when the future is cancelled, the exchange is
     * cancelled too. For requests whose answer nobody waits on, so that a caller that only needs the request made is
     * not held behind a service's queue; {@link #send} waits on it.
     */
    public static <T> CompletableFuture<HttpResponse<T>> sendInBackground(HttpClient client, HttpRequest request,
                                                                         HttpResponse.BodyHandler<T> body,
                                                                         Duration deadline) {
        CompletableFuture<HttpResponse<T>> exchange = client.sendAsync(HttpRequest.newBuilder(request, (n, v) -> true)
                .timeout(deadline).build(), body);
        CompletableFuture<HttpResponse<T>> answer = new CompletableFuture<>();
        exchange.whenComplete((response, failure) -> {
            if (failure == null) {
                answer.complete(response);
            } else {
                answer.completeExceptionally(failure);
            }
        });
        CompletableFuture.delayedExecutor(deadline.toMillis(), TimeUnit.MILLISECONDS).execute(() ->
                answer.completeExceptionally(new HttpTimeoutException(request.method() + " " + request.uri()
                        + ": no whole answer within " + deadline.toMillis() + " ms")));
        answer.whenComplete((response, failure) -> {
            if (failure != null) { // the deadline, or cancelled: the exchange ends too
                exchange.cancel(true);
            }
        });
        return answer;
    }

    public static <T> HttpResponse<T> send(HttpClient client, HttpRequest request,
                                           HttpResponse.BodyHandler<T> body, Duration deadline) throws IOException {
        CompletableFuture<HttpResponse<T>> answer = sendInBackground(client, request, body, deadline);
        try {
            return answer.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) { // the deadline's HttpTimeoutException among them
                throw io;
            }
            throw new IOException(request.method() + " " + request.uri() + ": " + cause, cause);
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw new StepInterrupted(request.method() + " " + request.uri()); // it carries the interrupt
        }
    }
}
