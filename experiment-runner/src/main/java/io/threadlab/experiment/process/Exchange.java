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
import java.util.concurrent.TimeoutException;

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
     * The same exchange, not waited for: the future ends with the whole answer, or with an HttpTimeoutException at the
     * deadline (the exchange then cancelled), or with the client's own error. For requests whose answer nobody waits
     * on, so that a caller that only needs the request made is not held behind a service's queue.
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
        CompletableFuture.delayedExecutor(deadline.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            if (answer.completeExceptionally(new HttpTimeoutException(request.method() + " " + request.uri()
                    + ": no whole answer within " + deadline.toMillis() + " ms"))) {
                exchange.cancel(true);
            }
        });
        return answer;
    }

    public static <T> HttpResponse<T> send(HttpClient client, HttpRequest request,
                                           HttpResponse.BodyHandler<T> body, Duration deadline) throws IOException {
        CompletableFuture<HttpResponse<T>> exchange = client.sendAsync(HttpRequest.newBuilder(request, (n, v) -> true)
                .timeout(deadline).build(), body);
        try {
            return exchange.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new HttpTimeoutException(request.method() + " " + request.uri() + ": no whole answer within "
                    + deadline.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(request.method() + " " + request.uri() + ": " + cause, cause);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw new StepInterrupted(request.method() + " " + request.uri()); // it carries the interrupt
        }
    }
}
