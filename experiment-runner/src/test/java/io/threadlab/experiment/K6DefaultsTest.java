package io.threadlab.experiment;

import io.threadlab.experiment.load.RoundTrip;
import io.threadlab.experiment.load.WindowRunner;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.OpenModel;
import io.threadlab.experiment.plan.Variant;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The k6 scripts' defaults, for a run by hand, are the runner's where the runner has one (it passes its own every
 * time, load/Loads.java), so that a script run by hand measures what the runner would; the lab's settings (.env) are
 * read from the file itself (lib.js' labSetting), never copied into a script.
 */
class K6DefaultsTest {

    private static final Path K6 = ComposeFile.LAB.resolve("k6");

    private static String script(String name) throws IOException {
        return Files.readString(K6.resolve(name));
    }

    /** The script's fallback for {@code __ENV.NAME}: {@code __ENV.NAME || 'value'}. */
    private static String fallback(String script, String name) throws IOException {
        Matcher m = Pattern.compile("__ENV\\." + name + " \\|\\| '([^']*)'").matcher(script(script));
        assertThat(m.find()).as("k6/%s: a default for %s", script, name).isTrue();
        return m.group(1);
    }

    private static ExperimentPlan defaultRun() {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs();
        return run.plan();
    }

    @Test
    void theScriptsDefaultsAreTheRunnersOwn() throws IOException {
        List<Integer> levels = Defaults.integers(Defaults.LEVELS);
        assertThat(fallback("closed.js", "VUS")).as("closed.js' users: the runner's first level")
                .isEqualTo(String.valueOf(levels.getFirst()));
        assertThat(fallback("open.js", "STEP")).isEqualTo(Defaults.OPEN_STEP + "s");
        assertThat(fallback("open.js", "MAX_VUS")).as("open.js' users: what the runner allows at its default levels")
                .isEqualTo(String.valueOf(WindowRunner.openModelMaxUsers(defaultRun())));
        assertThat(Defaults.MISTAKES_OPEN_RATES).as("open.js' rates: the first of the gallery's")
                .startsWith(fallback("open.js", "RATES"));
        assertThat(fallback("roundtrip.js", "SAMPLES")).isEqualTo(String.valueOf(RoundTrip.SAMPLES));
        assertThat(fallback("lib.js", "BASE_URL")).as("lib.js' service: the reactive variant")
                .isEqualTo("http://127.0.0.1:" + Variant.REACTIVE.port());
        assertThat(fallback("lib.js", "API_PATH")).isEqualTo("/api");
    }

    /** The latency open.js expects: the runner's (the delay plus the SLO's margin), the delay read from .env. */
    @Test
    void openJsExpectsTheRunnersLatencyWithDotEnvsDelay() throws IOException {
        assertThat(script("open.js")).contains("labSetting('LAB_DELAY_MS')")
                .contains("+ " + OpenModel.SLO_ABOVE_DELAY_MS + ")");
        assertThat(script("lib.js")).contains("open('../.env')");
    }

    /** No script carries a value of .env: a setting's value as a fallback would be a copy that drifts. */
    @Test
    void noScriptCopiesASettingOfDotEnv() throws IOException {
        Matcher fallbacks = Pattern.compile("__ENV\\.([A-Z_]+) \\|\\| '([^']*)'").matcher("");
        try (var files = Files.list(K6)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".js")).toList()) {
                fallbacks.reset(Files.readString(file));
                while (fallbacks.find()) {
                    assertThat(fallbacks.group(1)).as("k6/%s: a default of its own for a setting of .env",
                            file.getFileName()).doesNotStartWith("LAB_");
                }
                assertThat(Files.readString(file)).as("k6/%s names a setting of .env only to read it",
                        file.getFileName()).doesNotContainPattern("__ENV\\.LAB_");
            }
        }
    }
}
