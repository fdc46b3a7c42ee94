package io.threadlab.experiment.analyse.jmc;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;
import java.util.Optional;

/**
 * What JDK Mission Control's rules said of one recording: every rule's result, how long they took, where JMC's own page
 * was written (beside the recording), and why not, where the recording could not be read.
 *
 * @param html    JMC's own HTML page, relative to the results directory (null where none was written)
 * @param failure why the rules did not run on this recording (null: they did)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record JmcRecording(String file, String window, double seconds, List<RuleResult> rules, String html,
                           String failure) {

    public JmcRecording {
        rules = rules == null ? List.of() : List.copyOf(rules);
    }

    public Optional<RuleResult> rule(String id) {
        return rules.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    /** The rules JMC's first page draws attention to, warnings first, then by score. */
    public List<RuleResult> flagged() {
        return rules.stream().filter(RuleResult::flagged).sorted(java.util.Comparator
                .comparing((RuleResult r) -> !r.warning()).thenComparing(r -> -(r.score() == null ? 0 : r.score())))
                .toList();
    }

    public long count(String severity) {
        return rules.stream().filter(r -> r.severity().equals(severity)).count();
    }

    public long ok() {
        return count(RuleResult.OK);
    }

    public long notApplicable() {
        return count(RuleResult.NOT_APPLICABLE);
    }

    public long failed() {
        return count(RuleResult.FAILED);
    }
}
