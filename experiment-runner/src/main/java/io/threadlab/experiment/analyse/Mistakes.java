package io.threadlab.experiment.analyse;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Common threading mistakes, recognised in a recording by their own signature (never by the recording's name), each
 * with its evidence: the thread group, the event, the code site and the counts. Every rule asks for a symptom and
 * for enough of it to be a habit rather than an accident, so that the correct variants (imperative, reactive,
 * virtual-thread, imperative-rest) raise none. The thresholds were set on recordings of the mistakes-service's
 * endpoints and of the four variants, under load; each says why it sits where it does, beside its rule. This is
 * what every rule makes: the mistake as analysis.json has it.
 */
public final class Mistakes {

    /**
     * One mistake seen in a recording, as analysis.json has it.
     *
     * @param name     what the mistake is called (the gallery's variant label where there is one)
     * @param harmful  false when the pattern is there but this JDK no longer makes it cost (blocking inside
     *                 synchronized on a virtual thread, JDK 24+)
     * @param group    the thread group it happened on (worker, event_loop, virtual, ...)
     * @param event    the JFR event type that shows it
     * @param site     the code site: the first frame of request code, or the waiting site
     * @param evidence the sentence the verdicts carry
     * @param numbers  the counts behind the sentence
     */
    public record Mistake(String name, boolean harmful, String group, String event, String site, String evidence,
                          Map<String, Object> numbers) {
    }

    private Mistakes() {
    }

    /** The key counted most often, "-" where there is none. */
    static String top(Map<String, Integer> counts) {
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("-");
    }

    /** A mistake's numbers, in the order given: name, value, name, value... */
    static Map<String, Object> numbers(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
