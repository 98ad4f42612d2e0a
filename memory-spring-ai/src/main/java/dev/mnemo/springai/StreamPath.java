package dev.mnemo.springai;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * {@link MnemoAdvisor#adviseStream}'s Reactor plumbing: per subscription, the request's user and
 * project resolved on the subscribing thread, its {@link Exchange} begun on the scheduler, the
 * model's stream filtered chunk by chunk through the exchange's {@link StreamedAnswer}, and the
 * exchange ended or abandoned exactly once whether the stream completes, fails or is cancelled
 * (also while it is still beginning). Blocking work never runs on a non-blocking thread.
 */
final class StreamPath {

    /** Logged under the advisor's name: these are the advisor's lines. */
    private static final Logger LOG = LoggerFactory.getLogger(MnemoAdvisor.class);

    private final RequestMemory memory;
    private final Scheduler scheduler;

    StreamPath(RequestMemory memory, Scheduler scheduler) {
        this.memory = memory;
        this.scheduler = scheduler;
    }

    /** The advised stream of {@code request}, which a Mnemo advisor already marked as handled. */
    Flux<ChatClientResponse> advise(ChatClientRequest request, StreamAdvisorChain chain) {
        return Flux.defer(() -> {
            String user = memory.user(request); // here, where thread-bound context is still visible
            String project = memory.project(request);
            AtomicReference<Exchange> begun = new AtomicReference<>();
            AtomicBoolean cancelled = new AtomicBoolean();
            return Mono.fromCallable(() -> {
                        Exchange exchange = memory.begin(request, user, project);
                        begun.set(exchange);
                        if (cancelled.get()) { // cancelled while it began: nobody will end it but us
                            exchange.abandon();
                            return null;
                        }
                        return exchange;
                    })
                    .subscribeOn(scheduler)
                    .doOnCancel(() -> {
                        cancelled.set(true);
                        Exchange exchange = begun.get();
                        if (exchange != null) {
                            offload(exchange::abandon);
                        }
                    })
                    .flatMapMany(exchange -> answer(exchange, chain));
        });
    }

    /**
     * The model's stream, filtered chunk by chunk. When it completes, the answer is recorded (on the
     * scheduler) and the exchange ended before the last chunk goes out, so a subscriber that saw
     * the stream complete may send the conversation's next request at once.
     */
    private Flux<ChatClientResponse> answer(Exchange exchange, StreamAdvisorChain chain) {
        StreamedAnswer answer = exchange.streamedAnswer();
        return chain.nextStream(exchange.request())
                .concatMapIterable(answer::visible)
                .concatWith(Flux.defer(() -> {
                    List<ChatClientResponse> last = answer.complete();
                    exchange.end();
                    return Flux.fromIterable(last);
                }).subscribeOn(scheduler))
                .doOnError(failure -> offload(exchange::abandon))   // before the subscriber hears of it
                .doOnCancel(() -> offload(exchange::abandon));
    }

    /** Runs {@code work} here, or on the scheduler when this is a thread that must not block. */
    private void offload(Runnable work) {
        Runnable logged = () -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.warn("Recording the end of a cut-short memory exchange failed", e);
            }
        };
        if (Schedulers.isInNonBlockingThread()) {
            scheduler.schedule(logged);
        } else {
            logged.run();
        }
    }
}
