package io.threadlab.experiment.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gallery's explanations (docs/mistakes.md, bundled into the runner), one section per mistake by its label, so
 * that every report can quote them without the lab beside it; with what the gallery says of itself: the mistake the
 * analysis recognises each gallery variant as (its table), and the JDK and Quarkus its facts are for.
 */
final class MistakeTexts {

    /**
     * "| `default-connection-pool` | ... | `connection-pool-cap` |": the first cell and the last, each a name and what
     * may follow it ("`jdbc-on-event-loop` (`--downstream db`)").
     */
    private static final Pattern TABLE_ROW = Pattern.compile(
            "^\\|\\s*`([a-z-]+)`[^|]*\\|.*\\|\\s*`([a-z-]+)`[^|]*\\|\\s*$");
    private static final Pattern FACTS_FOR = Pattern.compile("Facts below are for JDK (\\d+) and Quarkus ([\\d.]+)");

    /** What the gallery says of itself and of each mistake. */
    record Gallery(Map<String, String> sections, Map<String, String> recognisedAs, Optional<Integer> jdk,
                   Optional<String> quarkus) {
    }

    private static final Gallery GALLERY = read();

    private MistakeTexts() {
    }

    /** The section of a mistake (or reference), as markdown; empty when the gallery has none. */
    static String of(String label) {
        return GALLERY.sections().getOrDefault(label, "");
    }

    /** The mistake the analysis names this gallery variant by, as the gallery's table says; empty for none. */
    static Optional<String> recognisedAs(String label) {
        return Optional.ofNullable(GALLERY.recognisedAs().get(label));
    }

    /** The JDK feature release the gallery's facts are for ("Facts below are for JDK 25 ..."). */
    static Optional<Integer> writtenForJdk() {
        return GALLERY.jdk();
    }

    /** The Quarkus version the gallery's facts are for. */
    static Optional<String> writtenForQuarkus() {
        return GALLERY.quarkus();
    }

    private static Gallery read() {
        try (InputStream in = MistakeTexts.class.getResourceAsStream("mistakes.md")) {
            if (in == null) {
                // a runner built without the docs: the cards still show numbers and evidence
                return new Gallery(Map.of(), Map.of(), Optional.empty(), Optional.empty());
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled mistakes.md", e);
        }
    }

    static Gallery parse(String markdown) {
        Map<String, String> sections = new LinkedHashMap<>();
        Map<String, String> recognised = new LinkedHashMap<>();
        Optional<Integer> jdk = Optional.empty();
        Optional<String> quarkus = Optional.empty();
        String current = null;
        StringBuilder text = new StringBuilder();
        for (String line : markdown.split("\n")) {
            if (line.startsWith("## ")) {
                if (current != null) {
                    sections.put(current, text.toString().trim());
                }
                current = line.substring(3).replaceAll(".*`([a-z-]+)`.*", "$1").trim();
                text.setLength(0);
            } else if (current != null) {
                text.append(line).append('\n');
            } else {
                Matcher row = TABLE_ROW.matcher(line);
                if (row.matches()) {
                    recognised.put(row.group(1), row.group(2));
                }
                Matcher facts = FACTS_FOR.matcher(line);
                if (facts.find()) {
                    jdk = Optional.of(Integer.parseInt(facts.group(1)));
                    quarkus = Optional.of(facts.group(2));
                }
            }
        }
        if (current != null) {
            sections.put(current, text.toString().trim());
        }
        return new Gallery(sections, recognised, jdk, quarkus);
    }
}
