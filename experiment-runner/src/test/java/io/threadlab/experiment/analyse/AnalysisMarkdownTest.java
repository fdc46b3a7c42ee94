package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.collect.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * analysis.md from the template, against the markdown the runner built by hand (golden/run-d6f4758: analysis.json
 * and analysis-before.md were written together, by the runner of d6f4758, from the same recordings). The template
 * renders from the analysis.json records, so it must say the same: every heading, sentence, table row and verdict,
 * line for line and word for word.
 * <p>
 * One difference is allowed, and only in numbers: analysis.json keeps three decimals, and the hand-built markdown
 * rounded the unrounded value. A number printed with fewer digits than the JSON keeps may round differently once
 * (a mean CPU of 0.00496 was "0.00"; the JSON's 0.005 is "0.01"). So a decimal may differ by one unit of its last
 * printed digit, and by nothing else: the same digits after the point, the same words around it. Counts are
 * integers in the JSON too, and must be equal.
 */
class AnalysisMarkdownTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/run-d6f4758");
    private static final Pattern NUMBER = Pattern.compile("\\d[\\d,]*(?:\\.\\d+)?");

    @Test
    void theTemplateSaysWhatTheHandBuiltMarkdownSaid() throws IOException {
        // format 1: no delay_ms, no stalls; reading must not mind
        AnalysisFile analysis = Json.MAPPER.readValue(GOLDEN.resolve("analysis.json").toFile(), AnalysisFile.class);
        List<String> rendered = AnalysisMarkdown.render(analysis).lines().toList();
        List<String> before = Files.readString(GOLDEN.resolve("analysis-before.md")).lines().toList();

        assertThat(rendered).hasSameSizeAs(before);
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            if (!sameFacts(rendered.get(i), before.get(i))) {
                differences.add("line " + (i + 1) + ":\n  rendered: " + rendered.get(i) + "\n  before:   "
                        + before.get(i));
            }
        }
        assertThat(differences).as("lines that say something else").isEmpty();
        assertThat(rendered).filteredOn(line -> line.startsWith("## ")).hasSize(analysis.recordings().size());
    }

    /** What the golden run does not have: a failure, a window without results.json's CPU per request. */
    @Test
    void failuresAndUnknownNumbersAreSaidAsTheHandBuiltMarkdownSaidThem() throws IOException {
        ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(GOLDEN.resolve("analysis.json").toFile());
        tree.putArray("failures").add("jfr/broken.jfr: not a readable JFR recording");
        ObjectNode cpu = (ObjectNode) tree.get("recordings").get(0).get("cpu_by_layer");
        cpu.remove("cpu_ms_per_request");
        cpu.get("layers").forEach(layer -> ((ObjectNode) layer).remove("cpu_ms_per_request"));
        String markdown = AnalysisMarkdown.render(Json.MAPPER.treeToValue(tree, AnalysisFile.class));
        assertThat(markdown).contains("## Recordings that could not be analysed\n\n- jfr/broken.jfr: not a readable"
                + " JFR recording\n\n![blocking-event-loop thread lanes]");
        String first = markdown.substring(0, markdown.indexOf("## blocking-event-loop-closed-50-jfr-1"));
        assertThat(first).doesNotContain("CPU ms per request: each share").contains("| HTTP server | 1 | 35.7 % | - |");
    }

    @Test
    void decimalsMayDifferOnlyInTheirLastDigitByOne() {
        assertThat(sameFacts("| other | 4 | 0.01 |", "| other | 4 | 0.00 |")).isTrue();
        assertThat(sameFacts("| other | 4 | 0.02 |", "| other | 4 | 0.00 |")).isFalse();
        assertThat(sameFacts("| other | 4 | 0.0 |", "| other | 4 | 0.00 |")).isFalse();
        assertThat(sameFacts("| other | 5 | 0.01 |", "| other | 4 | 0.01 |")).isFalse(); // a count is exact
        assertThat(sameFacts("| worker | 4 | 0.01 |", "| other | 4 | 0.01 |")).isFalse();
    }

    /** The same words and counts, and decimals with the same digits after the point, one unit of the last apart. */
    private static boolean sameFacts(String rendered, String before) {
        if (rendered.equals(before)) {
            return true;
        }
        Matcher r = NUMBER.matcher(rendered);
        Matcher b = NUMBER.matcher(before);
        if (!r.replaceAll("#").equals(b.replaceAll("#"))) {
            return false;
        }
        r.reset();
        b.reset();
        while (r.find() && b.find()) {
            BigDecimal x = new BigDecimal(r.group().replace(",", ""));
            BigDecimal y = new BigDecimal(b.group().replace(",", ""));
            boolean lastDigit = x.scale() > 0 && x.scale() == y.scale() && x.subtract(y).abs().compareTo(x.ulp()) <= 0;
            if (!x.equals(y) && !lastDigit) {
                return false;
            }
        }
        return true;
    }
}
