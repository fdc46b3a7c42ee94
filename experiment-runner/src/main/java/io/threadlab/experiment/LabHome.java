package io.threadlab.experiment;

import java.nio.file.Files;
import java.nio.file.Path;

/** The lab's checkout: where the modules, k6/ and jfr/ live. Given by -Dlab.home, else found upward from here. */
final class LabHome {

    private LabHome() {
    }

    static Path find() {
        String given = System.getProperty("lab.home");
        if (given != null) {
            return require(Path.of(given).toAbsolutePath().normalize());
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (isLab(dir)) {
                return dir;
            }
        }
        throw new IllegalStateException("run from inside the lab's checkout (no k6/closed.js and jfr/threads.jfc found"
                + " above " + Path.of("").toAbsolutePath() + "), or pass -Dlab.home=<checkout>");
    }

    private static Path require(Path dir) {
        if (!isLab(dir)) {
            throw new IllegalStateException(dir + " is not the lab's checkout (no k6/closed.js and jfr/threads.jfc)");
        }
        return dir;
    }

    private static boolean isLab(Path dir) {
        return Files.exists(dir.resolve("k6/closed.js")) && Files.exists(dir.resolve("jfr/threads.jfc"));
    }
}
