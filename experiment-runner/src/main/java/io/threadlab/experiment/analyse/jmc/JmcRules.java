package io.threadlab.experiment.analyse.jmc;

import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.flightrecorder.CouldNotLoadRecordingException;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;
import org.openjdk.jmc.flightrecorder.rules.DependsOn;
import org.openjdk.jmc.flightrecorder.rules.IResult;
import org.openjdk.jmc.flightrecorder.rules.IRule;
import org.openjdk.jmc.flightrecorder.rules.ResultBuilder;
import org.openjdk.jmc.flightrecorder.rules.ResultProvider;
import org.openjdk.jmc.flightrecorder.rules.ResultToolkit;
import org.openjdk.jmc.flightrecorder.rules.RuleRegistry;
import org.openjdk.jmc.flightrecorder.rules.Severity;
import org.openjdk.jmc.flightrecorder.rules.TypedResult;
import org.openjdk.jmc.flightrecorder.rules.report.html.internal.RulesHtmlToolkit;
import org.openjdk.jmc.flightrecorder.rules.util.RulesToolkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * JDK Mission Control's automated analysis, headless: the rules JMC runs when it opens a recording (its
 * flightrecorder.rules.jdk library, and the lab's own rule for what JMC lacks, registered beside them), evaluated on
 * one recording at a time, one rule after another in JMC's order (a rule that depends on another's result runs after
 * it, and not where that one found nothing), and JMC's own HTML page of them written beside the recording. What a user
 * sees first in JMC, without installing it.
 */
public final class JmcRules {

    /**
     * JMC's parser warns once per chunk that it does not know JDK 19+'s {@code virtual} field of a thread, and logs a
     * truncated chunk at INFO with its stack: kept off the console (JUL holds loggers weakly: this one is held here).
     */
    private static final Logger JMC_LOG = Logger.getLogger("org.openjdk.jmc");

    static {
        JMC_LOG.setLevel(Level.SEVERE);
    }

    /** Every rule JMC registers, JDK's and the lab's, in the registry's order (dependencies first). */
    private final List<IRule> rules = List.copyOf(RuleRegistry.getRules());

    /**
     * The rules on {@code recording}, and JMC's page written to {@code html} (null: none). A recording that cannot be
     * read (empty, truncated in its first chunk, not a recording) is a result with its failure, not an exception: the
     * others are still analysed.
     */
    public JmcRecording evaluate(Path recording, String window, Path html, Path relativeTo) {
        long start = System.nanoTime();
        IItemCollection events;
        try {
            events = JfrLoaderToolkit.loadEvents(recording.toFile());
        } catch (IOException | CouldNotLoadRecordingException | RuntimeException e) {
            return new JmcRecording(recording.getFileName().toString(), window, seconds(start), List.of(), null,
                    "JMC could not read it: " + (e.getMessage() == null ? e.getClass().getSimpleName()
                            : e.getMessage()));
        }
        List<IResult> results = new ArrayList<>();
        List<RuleResult> out = new ArrayList<>();
        ResultProvider dependencies = new ResultProvider();
        Map<Class<?>, Severity> done = new HashMap<>();
        IPreferenceValueProvider defaults = IPreferenceValueProvider.DEFAULT_VALUES;
        for (IRule rule : rules) {
            DependsOn needs = rule.getClass().getAnnotation(DependsOn.class);
            try {
                IResult result;
                if (!RulesToolkit.matchesEventAvailabilityMap(events, rule.getRequiredEvents())
                        || needs != null && (done.get(needs.value()) == null
                        || done.get(needs.value()).getLimit() < needs.severity().getLimit())) {
                    result = ResultBuilder.createFor(rule, defaults).setSeverity(Severity.NA)
                            .setSummary(RulesToolkit.getIgnoreReason(events, rule)).build();
                } else {
                    RunnableFuture<IResult> evaluation = rule.createEvaluation(events, defaults, dependencies);
                    evaluation.run();
                    result = evaluation.get();
                    dependencies.addResults(result);
                }
                done.put(rule.getClass(), result.getSeverity());
                results.add(result);
                out.add(of(rule, result));
            } catch (ExecutionException | RuntimeException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                out.add(new RuleResult(rule.getId(), rule.getName(), rule.getTopic(), RuleResult.FAILED, null,
                        "the rule failed: " + cause));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        String page = null;
        String failure = null;
        if (html != null) {
            try {
                Files.writeString(html, RulesHtmlToolkit.generateSinglePageHtml(results), StandardCharsets.UTF_8);
                page = relativeTo.relativize(html.toAbsolutePath()).toString();
            } catch (IOException | RuntimeException e) {
                failure = "JMC's page could not be written: " + e.getMessage();
            }
        }
        out.sort(Comparator.comparing(RuleResult::id));
        return new JmcRecording(recording.getFileName().toString(), window, seconds(start), out, page, failure);
    }

    private static RuleResult of(IRule rule, IResult result) {
        IQuantity score = result.getResult(TypedResult.SCORE);
        Severity severity = result.getSeverity();
        return new RuleResult(rule.getId(), rule.getName(), rule.getTopic(), severity == Severity.IGNORE
                ? RuleResult.NOT_APPLICABLE : severity.name(), score == null ? null
                : Math.round(score.doubleValue() * 10) / 10.0, oneLine(result, result.getSummary()));
    }

    /**
     * A rule's text with its placeholders filled, in one plain line: JMC's messages keep MessageFormat's doubled
     * apostrophes and a paragraph mark here and there.
     */
    static String oneLine(IResult result, String template) {
        if (template == null) {
            return "";
        }
        String text = ResultToolkit.populateMessage(result, template, false);
        return text == null ? "" : text.replace("''", "'").replaceAll("(?i)<p>|<br\\s*/?>", " ")
                .replaceAll("<[^>]+>", "").replaceAll("\\s+", " ").strip();
    }

    private static double seconds(long start) {
        return Math.round((System.nanoTime() - start) / 1e8) / 10.0;
    }
}
