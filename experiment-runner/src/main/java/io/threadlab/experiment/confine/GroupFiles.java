package io.threadlab.experiment.confine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads and writes cgroup files, and remembers the groups it made so they can all be removed, children first. */
final class GroupFiles {

    private final List<Path> made = Collections.synchronizedList(new ArrayList<>());

    Path makeGroup(Path dir) {
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectory(dir);
                made.add(dir);
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make cgroup " + dir + ": " + e.getMessage(), e);
        }
    }

    void write(Path file, String value) {
        try {
            Files.writeString(file, value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write '" + value + "' to " + file + ": " + e.getMessage(), e);
        }
    }

    String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** rmdir each group made, newest first; a group still holding a process is retried briefly, as it may be exiting. */
    void removeMade() {
        List<Path> dirs;
        synchronized (made) {
            dirs = new ArrayList<>(made);
            made.clear();
        }
        Collections.reverse(dirs);
        for (Path dir : dirs) {
            for (int attempt = 0; attempt < 50 && Files.isDirectory(dir); attempt++) {
                try {
                    Files.delete(dir);
                } catch (java.nio.file.DirectoryNotEmptyException e) {
                    deleteFiles(dir); // an ordinary directory (a test's fake tree); cgroupfs allows rmdir as it is
                } catch (IOException e) {
                    sleepBriefly();
                }
            }
            if (Files.isDirectory(dir)) {
                System.err.println("WARNING: could not remove cgroup " + dir + " (a process is still in it)");
            }
        }
    }

    /**
     * Removes each group under {@code mount} named {@code family*} but not {@code ours*} whose tree holds no process,
     * children first (a v2 run's parent holds one group per process).
     */
    List<String> removeAbandoned(Path mount, String family, String ours) {
        List<String> removed = new ArrayList<>();
        try (var groups = Files.list(mount)) {
            for (Path group : groups.filter(Files::isDirectory).sorted().toList()) {
                String name = group.getFileName().toString();
                if (!name.startsWith(family) || name.startsWith(ours)) {
                    continue;
                }
                if (empty(group)) {
                    removeTree(group);
                    removed.add(group.toString());
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // an unreadable mount only means nothing is cleaned; confinement itself reports real failures
        }
        return removed;
    }

    private static boolean empty(Path group) throws IOException {
        try (var tree = Files.walk(group)) {
            for (Path procs : tree.filter(p -> p.getFileName().toString().equals("cgroup.procs")).toList()) {
                if (!Files.readString(procs).isBlank()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void removeTree(Path group) throws IOException {
        try (var tree = Files.walk(group)) {
            for (Path dir : tree.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.delete(dir);
                } catch (java.nio.file.DirectoryNotEmptyException e) {
                    deleteFiles(dir); // a test's fake tree; cgroupfs allows rmdir of a group as it is
                    Files.delete(dir);
                }
            }
        }
    }

    private static void deleteFiles(Path dir) {
        try (var children = Files.list(dir)) {
            for (Path child : children.filter(Files::isRegularFile).toList()) {
                Files.delete(child);
            }
        } catch (IOException e) {
            sleepBriefly();
        }
    }

    /**
     * A flat-keyed cgroup file ({@code cpu.stat}): each line's key and whole number. A line of any other shape is
     * passed over, so that a key a later kernel adds cannot make the counters unreadable.
     */
    static Map<String, Long> keyValues(String text) {
        Map<String, Long> values = new LinkedHashMap<>();
        text.lines().map(l -> l.strip().split("\\s+")).filter(f -> f.length == 2 && f[1].matches("-?\\d+"))
                .forEach(f -> values.put(f[0], Long.parseLong(f[1])));
        return values;
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
