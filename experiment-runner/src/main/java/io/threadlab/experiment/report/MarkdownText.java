package io.threadlab.experiment.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The little markdown the gallery's explanations use (paragraphs, **bold**, `code`, *emphasis*), as paragraphs of
 * spans, so that the html fragment (sections/mistakes.html) writes the tags and the engine escapes the text.
 */
final class MarkdownText {

    /** A run of text and how it is set: "b", "code", "i", or "" for plain. */
    record Span(String text, String style) {
    }

    record Paragraph(List<Span> spans) {
    }

    private static final Pattern INLINE = Pattern.compile("\\*\\*([^*]+)\\*\\*|`([^`]+)`|\\*([^*\\s][^*]*)\\*");

    private MarkdownText() {
    }

    static List<Paragraph> paragraphs(String markdown) {
        List<Paragraph> paragraphs = new ArrayList<>();
        for (String para : markdown.split("\n\\s*\n")) {
            String text = para.trim().replace('\n', ' ');
            if (!text.isEmpty()) {
                paragraphs.add(new Paragraph(spans(text)));
            }
        }
        return paragraphs;
    }

    private static List<Span> spans(String text) {
        List<Span> spans = new ArrayList<>();
        Matcher m = INLINE.matcher(text);
        int at = 0;
        while (m.find()) {
            if (m.start() > at) {
                spans.add(new Span(text.substring(at, m.start()), ""));
            }
            spans.add(m.group(1) != null ? new Span(m.group(1), "b") : m.group(2) != null
                    ? new Span(m.group(2), "code") : new Span(m.group(3), "i"));
            at = m.end();
        }
        if (at < text.length()) {
            spans.add(new Span(text.substring(at), ""));
        }
        return spans;
    }
}
