package io.threadlab.api;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints every skipped test with its reason on the build's console, where Maven itself only counts them: a test that
 * could not run here (no real PostgreSQL on this machine) must be seen, not mistaken for a pass. lab-database's own,
 * copied: modules share no test code.
 */
public final class SkipReasons implements TestExecutionListener {

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        print(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) { // a failed assumption
            print(test, result.getThrowable().map(Throwable::getMessage).orElse("no reason given"));
        }
    }

    private static void print(TestIdentifier test, String reason) {
        System.out.println("[SKIPPED] " + test.getLegacyReportingName() + " in " + test.getParentId().map(
                id -> id.replaceAll(".*\\[class:([^\\]]+)].*", "$1")).orElse("?") + ": " + reason);
    }
}
