package io.threadlab.experiment.analyse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * PostgreSQL's refusals of new connections ("FATAL: sorry, too many clients already") during a recorded window. A
 * refused connection leaves no JFR event. The lab's PostgreSQL logs each one (logs/postgres.log, its lines stamped
 * with the date, time and zone); where the run kept no such log, the recorded JVM's own log may have them: Agroal
 * catches the driver's exception and, on Quarkus 3.27, logs it (on 3.33.2 it did not: 10,335 refusals in
 * PostgreSQL's log of one run, none in the JVM's). The runner keeps each JVM's log (logs/&lt;jvm&gt;-jvm&lt;n&gt;.log),
 * whose lines carry the time of day only (the services' console format, in the zone the JVMs ran in, this
 * machine's). The database serves every JVM of a run, but only the measured one has load during its window.
 */
final class RefusedConnections {

    /** PostgreSQL's words for a connection beyond max_connections (less the superusers' reserved slots). */
    static final String REFUSAL = "too many clients";
    private static final Pattern TIME_OF_DAY = Pattern.compile("^(\\d{2}:\\d{2}:\\d{2}\\.\\d{3})\\s");
    private static final Pattern DATABASE_STAMP = Pattern.compile(
            "^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} \\S+)\\s");
    private static final DateTimeFormatter DATABASE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS z");

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

    /**
     * The refusals PostgreSQL's own log holds between {@code start} and {@code end}, or null where there is no such
     * log. Its lines begin with their time and zone ({@code 2026-11-29 08:24:37.380 UTC [4724] FATAL: ...}).
     */
    static Long inDatabaseLog(Path log, Instant start, Instant end) {
        if (!Files.isRegularFile(log)) {
            return null;
        }
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(line -> line.contains(REFUSAL)).map(RefusedConnections::stamped)
                    .filter(t -> t != null && !t.isBefore(start) && !t.isAfter(end)).count();
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
    }

    private static Instant stamped(String line) {
        Matcher m = DATABASE_STAMP.matcher(line);
        if (!m.find()) {
            return null;
        }
        try {
            return ZonedDateTime.parse(m.group(1), DATABASE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null;
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
