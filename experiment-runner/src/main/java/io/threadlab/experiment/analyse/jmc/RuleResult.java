package io.threadlab.experiment.analyse.jmc;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One of JDK Mission Control's automated-analysis rules on one recording, as JMC's first page shows it: the rule, its
 * severity (OK, INFO, WARNING; NA where it could not evaluate, with why; FAILED where it threw), its score where the
 * rule keeps one (0-100; many do not), and its summary in one line.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RuleResult(String id, String name, String topic, String severity, Double score, String summary) {

    public static final String WARNING = "WARNING";
    public static final String INFO = "INFO";
    public static final String OK = "OK";
    public static final String NOT_APPLICABLE = "NA";
    public static final String FAILED = "FAILED";

    /** Whether JMC draws attention to it on its first page: a warning, or information. */
    public boolean flagged() {
        return WARNING.equals(severity) || INFO.equals(severity);
    }

    public boolean warning() {
        return WARNING.equals(severity);
    }
}
