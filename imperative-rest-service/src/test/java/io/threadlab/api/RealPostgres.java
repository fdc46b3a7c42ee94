package io.threadlab.api;

import io.threadlab.database.ServerAccount;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that runs against the lab's real PostgreSQL ({@link LabPostgres}): skipped, with its reason (printed
 * by SkipReasons), where it cannot run, before Quarkus or the database starts.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@EnabledOnOs(value = OS.LINUX, architectures = {"amd64", "x86_64"},
        disabledReason = "needs Linux on x86_64: the lab's PostgreSQL binaries from Maven Central are built for it")
@ExtendWith(RealPostgres.AccountToRunIt.class)
public @interface RealPostgres {

    /** PostgreSQL refuses root: as root, the lab needs an unprivileged account and setpriv (lab-database checks). */
    class AccountToRunIt implements ExecutionCondition {

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            try {
                return ConditionEvaluationResult.enabled(ServerAccount.choose().describe());
            } catch (IllegalStateException e) {
                return ConditionEvaluationResult.disabled(e.getMessage());
            }
        }
    }
}
