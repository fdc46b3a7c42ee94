package io.threadlab.experiment.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gallery's explanations (docs/mistakes.md, bundled into the runner), one section per mistake by its label, so
 * that every report can quote them without the lab beside it.
 */
final class MistakeTexts {

    private static final Map<String, String> SECTIONS = read();

    private MistakeTexts() {
    }

    /** The section of a mistake (or reference), as markdown; empty when the gallery has none. */
    static String of(String label) {
        return SECTIONS.getOrDefault(label, "");
    }

    private static Map<String, String> read() {
        Map<String, String> sections = new LinkedHashMap<>();
        try (InputStream in = MistakeTexts.class.getResourceAsStream("mistakes.md")) {
            if (in == null) {
                return sections; // a runner built without the docs: the cards still show numbers and evidence
            }
            String current = null;
            StringBuilder text = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("## ")) {
                    if (current != null) {
                        sections.put(current, text.toString().trim());
                    }
                    current = line.substring(3).replaceAll(".*`([a-z-]+)`.*", "$1").trim();
                    text.setLength(0);
                } else if (current != null) {
                    text.append(line).append('\n');
                }
            }
            if (current != null) {
                sections.put(current, text.toString().trim());
            }
            return sections;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled mistakes.md", e);
        }
    }
}
