package io.threadlab.experiment.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** {@code results/<UTC timestamp>/}, made atomically: an existing run directory is never reused or overwritten. */
public final class ResultsDirectory {

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'").withZone(ZoneOffset.UTC);

    private ResultsDirectory() {
    }

    public static Path create(Path root, Instant now) {
        try {
            Files.createDirectories(root);
            String base = STAMP.format(now);
            for (int n = 1; ; n++) {
                Path dir = root.resolve(n == 1 ? base : base + "-" + n);
                try {
                    Files.createDirectory(dir);
                    for (String sub : new String[] {"jfr", "k6", "metrics", "logs"}) {
                        Files.createDirectory(dir.resolve(sub));
                    }
                    return dir;
                } catch (FileAlreadyExistsException e) {
                    // a run started in the same second: take the next name
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a results directory under " + root + ": " + e.getMessage(), e);
        }
    }
}
