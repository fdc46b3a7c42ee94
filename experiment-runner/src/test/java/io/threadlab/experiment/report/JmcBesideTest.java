package io.threadlab.experiment.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.collect.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JMC's rules beside the lab's verdicts, on a real run's analysis (the 2 × 2 golden run) given what JMC said of its
 * first recording: the imperative variant at 100 users, blocked 724 ms on monitors in 16 s and paused 1,422 ms by its
 * collector, with k6 and the delay service on its cores.
 */
class JmcBesideTest {

    private static final String GOLDEN = "/golden/run-4fa4b52-2x2/";

    @Test
    void eachQuestionHasJmcsRuleTheLabsVerdictWhetherTheyAgreeAndWhyNot(@TempDir Path dir) throws IOException {
        List<JmcBeside.Table> tables = JmcBeside.of(Run.read(withJmc(dir)));
        assertThat(tables).singleElement().satisfies(t -> {
            assertThat(t.window()).isEqualTo("imperative-10ms-closed-100-jfr-1");
            assertThat(t.html()).isEqualTo("jfr/imperative-10ms-closed-100-jfr-1.jmc.html");
            assertThat(row(t, "monitor contention")).satisfies(r -> {
                assertThat(r.jmc()).startsWith("WARNING JavaBlocking (score 82): Threads were blocked");
                assertThat(r.lab()).startsWith("threads blocked 724 ms in all, 0.05× the recording's length, most at");
                // under a tenth of the recording, summed over threads: the lab does not call it contention
                assertThat(r.same()).isEqualTo("no");
                assertThat(r.why()).contains("JMC rates any blocked time against fixed limits");
            });
            // JMC cannot judge the pauses without jdk.GCPhasePause: no answer, and why
            assertThat(row(t, "the collector's pauses")).satisfies(r -> {
                assertThat(r.jmc()).startsWith("NA GcPauseRatio");
                assertThat(r.lab()).startsWith("paused 8.9 % of the recording");
                assertThat(r.same()).isEqualTo("–");
                assertThat(r.why()).contains("need jdk.GCPhasePause");
            });
            assertThat(row(t, "CPU taken by other processes")).satisfies(r -> {
                assertThat(r.lab()).startsWith("k6 and the delay service used");
                assertThat(r.why()).contains("the lab's own load generator and downstream");
            });
            // a question whose rule did not run on this recording is no answer either way
            assertThat(row(t, "threads waiting on sockets").same()).isEqualTo("–");
            assertThat(t.others()).singleElement().asString().startsWith("INFO MethodProfiling (score 30)");
        });
    }

    /**
     * Where both name the contention, the lab says the classic REST client takes the lock only where the site is one
     * of the client's: through Hibernate, the imperative variant's threads waited most at Caffeine's map.
     */
    @Test
    void theClassicClientIsNamedOnlyAtItsOwnSites(@TempDir Path dir) throws IOException {
        assertThat(contentionAt(dir.resolve("client"), "org.jboss.resteasy.core.providerfactory.SnapshotSet"
                + ".lockSnapshots:86")).contains("SnapshotSet.lockSnapshots, which the classic REST client takes");
        assertThat(contentionAt(dir.resolve("cache"), "com.github.benmanes.caffeine.cache.BoundedLocalCache.put:2316"))
                .startsWith("both see it; the lab names where:").contains("BoundedLocalCache.put")
                .doesNotContain("REST client");
    }

    /** Why, for the first recording, when its top monitor site is {@code site} and held its threads 10 s in all. */
    private static String contentionAt(Path dir, String site) throws IOException {
        Files.createDirectories(dir);
        withJmc(dir);
        ObjectNode analysis = (ObjectNode) Json.MAPPER.readTree(dir.resolve("analysis.json").toFile());
        ObjectNode top = (ObjectNode) analysis.get("recordings").get(0).get("monitor_enter_sites").get(0);
        top.put("site", site).put("total_ms", 10_000.0);
        Json.write(dir.resolve("analysis.json"), analysis);
        JmcBeside.Table table = JmcBeside.of(Run.read(dir)).getFirst();
        return row(table, "monitor contention").why();
    }

    /** The golden 2 × 2 run, with what JMC said of its first recording beside its analysis, copied into dir. */
    static Path withJmc(Path dir) throws IOException {
        for (String file : List.of("manifest.json", "results.json", "analysis.json")) {
            try (InputStream in = JmcBesideTest.class.getResourceAsStream(GOLDEN + file)) {
                Files.copy(in, dir.resolve(file));
            }
        }
        ObjectNode analysis = (ObjectNode) Json.MAPPER.readTree(dir.resolve("analysis.json").toFile());
        ObjectNode jmc = ((ArrayNode) analysis.withArray("jmc")).addObject();
        jmc.put("file", "imperative-10ms-closed-100-jfr-1.jfr").put("window", "imperative-10ms-closed-100-jfr-1")
                .put("seconds", 2.5).put("html", "jfr/imperative-10ms-closed-100-jfr-1.jmc.html");
        ArrayNode rules = jmc.putArray("rules");
        rule(rules, "JavaBlocking", "WARNING", 82.0, "Threads were blocked on locks for 724 ms.");
        rule(rules, "GarbageCollectionInfoRule", "OK", null, "Collections ran.");
        rule(rules, "GcPauseRatio", "NA", null, "jdk.GCPhasePause is DISABLED but the expected status is ENABLED");
        rule(rules, "CompareCpu", "WARNING", 90.0, "Other processes used a lot of CPU.");
        rule(rules, "MethodProfiling", "INFO", 30.0, "A hot method.");
        Json.write(dir.resolve("analysis.json"), analysis);
        return dir;
    }

    private static void rule(ArrayNode rules, String id, String severity, Double score, String summary) {
        ObjectNode r = rules.addObject().put("id", id).put("name", id).put("topic", "t").put("severity", severity)
                .put("summary", summary);
        if (score != null) {
            r.put("score", score);
        }
    }

    private static JmcBeside.Row row(JmcBeside.Table t, String question) {
        return t.rows().stream().filter(r -> r.question().equals(question)).findFirst().orElseThrow();
    }
}
