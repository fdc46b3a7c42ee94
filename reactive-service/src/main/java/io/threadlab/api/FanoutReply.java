package io.threadlab.api;

import java.util.List;

/**
 * The contract of {@code GET /api/fanout} in every variant: how many calls were made and how, each call's message in
 * the order the calls were made, and where the request itself ran (the calls' threads differ by variant, so they are
 * not part of it).
 */
public record FanoutReply(int calls, String mode, List<String> messages, ApiReply.ServedBy servedBy) {

    public FanoutReply(Fanout fanout, List<String> messages, ApiReply.ServedBy servedBy) {
        this(fanout.calls(), fanout.mode().label(), messages, servedBy);
    }
}
