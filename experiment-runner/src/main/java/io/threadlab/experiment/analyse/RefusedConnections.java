package io.threadlab.experiment.analyse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * PostgreSQL's refusals of new connections ("FATAL: sorry, too many clients already") during a recorded window, as
 * the recorded JVM's own log has them. A refused connection leaves no JFR event: the driver's exception is caught by
 * Agroal, which logs it and tries again. The runner keeps each JVM's log (logs/&lt;jvm&gt;-jvm&lt;n&gt;.log), whose
 * lines carry the time of day only (the services' console format, in the zone the JVMs ran in, this machine's).
 */
final class RefusedConnections {

    /** PostgreSQL's words for a connection beyond max_connections (less the superusers' reserved slots). */
    static final String REFUSAL = "too many clients";
    private static final Pattern TIME_OF_DAY = Pattern.compile("^(\\d{2}:\\d{2}:\\d{2}\\.\\d{3})\\s");

    private RefusedConnections() {
    }

    /** The refusals the log holds between {@code start} and {@code end}, or null where there is no such log. */
    static Long during(Path log, Instant start, Instant end, ZoneId zone) {
        if (!Files.isRegularFile(log)) {
            return null;
        }
        LocalTime from = start.atZone(zone).toLocalTime();
        LocalTime to = end.atZone(zone).toLocalTime();
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(line -> line.contains(REFUSAL)).filter(line -> within(line, from, to)).count();
        } catch (IOException | UncheckedIOException e) {
            return null; // an unreadable log says nothing, which is not zero
        }
    }

    private static boolean within(String line, LocalTime from, LocalTime to) {
        Matcher m = TIME_OF_DAY.matcher(line);
        if (!m.find()) {
            return false;
        }
        try {
            LocalTime t = LocalTime.parse(m.group(1));
            // A window that spans midnight wraps around it.
            return from.isAfter(to) ? !t.isBefore(from) || !t.isAfter(to) : !t.isBefore(from) && !t.isAfter(to);
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
