package io.threadlab.experiment.findings;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chart as it is published: the report's charts draw their text as glyph outlines with coordinates to a
 * millionth of a pixel (XChart's vector output), a map's 60-odd of them 12 MB; to a tenth of a pixel they look the
 * same and weigh half. Only the outlines' coordinates ({@code d} attributes) are rounded: no number a chart shows is.
 */
final class Svg {

    private static final Pattern PATH = Pattern.compile("(\\sd=\")([^\"]*)(\")");
    private static final Pattern DIGITS = Pattern.compile("(\\d+\\.\\d)\\d+");

    private Svg() {
    }

    static String lighter(String svg) {
        Matcher m = PATH.matcher(svg);
        StringBuilder out = new StringBuilder(svg.length());
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + DIGITS.matcher(m.group(2))
                    .replaceAll("$1") + m.group(3)));
        }
        m.appendTail(out);
        return out.toString();
    }
}
