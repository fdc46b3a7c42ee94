package io.threadlab.database;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The operating-system account PostgreSQL runs as. initdb and postgres refuse to run as root ("cannot be run as
 * root"), and the lab's machines run everything as root: then PostgreSQL runs as an existing unprivileged account,
 * {@code nobody} by default, switched to with {@code setpriv} (util-linux), which changes the user and groups and then
 * execs the program in the same process, so that the server's PID is the one the lab started (a {@code runuser} or
 * {@code su} would stay in between as a parent). Not root: PostgreSQL runs as the lab's own user.
 *
 * <p>Why {@code nobody} and not an account of the lab's own: making one would change the machine's
 * {@code /etc/passwd} for good, which "nothing to install" rules out, while {@code nobody} exists on every Debian,
 * Ubuntu and Red Hat system and owns nothing; the lab's data directory is made its own for the run and removed after.
 *
 * @param name     the account's name
 * @param uid      its user id
 * @param gid      its primary group id
 * @param switched whether the lab switches to it (it runs as root) or already runs as it
 */
public record ServerAccount(String name, int uid, int gid, boolean switched) {

    /** The account PostgreSQL runs as when the lab runs as root, unless told another. */
    public static final String DEFAULT_WHEN_ROOT = "nobody";

    /** The account for this process: itself, or {@link #DEFAULT_WHEN_ROOT} when it is root. */
    public static ServerAccount choose() {
        return choose(DEFAULT_WHEN_ROOT);
    }

    /**
     * The account for this process: itself when it is not root, else {@code whenRoot}.
     *
     * @throws IllegalStateException naming the cause when running as root and {@code whenRoot} does not exist, is
     *                               root itself, or {@code setpriv} is missing
     */
    public static ServerAccount choose(String whenRoot) {
        int uid = ownId("unix:uid");
        if (uid != 0) {
            return new ServerAccount(System.getProperty("user.name"), uid, ownId("unix:gid"), false);
        }
        String entry = passwdEntry(whenRoot);
        if (entry == null) {
            throw new IllegalStateException("the lab runs as root, which PostgreSQL refuses (initdb: \"cannot be run as "
                    + "root\"), so it runs PostgreSQL as an unprivileged account, '" + whenRoot + "'; but there is no "
                    + "such account here (getent passwd " + whenRoot + " found none). Name an existing unprivileged "
                    + "account (--run-as), or run the lab as a user other than root.");
        }
        String[] fields = entry.split(":");
        ServerAccount account = new ServerAccount(fields[0], Integer.parseInt(fields[2]), Integer.parseInt(fields[3]),
                true);
        if (account.uid == 0) {
            throw new IllegalStateException("the account '" + whenRoot + "' is root (uid 0): PostgreSQL refuses to run "
                    + "as root; name an unprivileged account (--run-as)");
        }
        if (!onPath("setpriv")) {
            throw new IllegalStateException("the lab runs as root and must start PostgreSQL as '" + account.name
                    + "', which needs setpriv (util-linux), not found on PATH: apt-get install util-linux");
        }
        return account;
    }

    /** A line saying who runs PostgreSQL and why, for the console and a manifest. */
    public String describe() {
        return switched
                ? "PostgreSQL runs as " + name + " (uid " + uid + "): the lab runs as root, and PostgreSQL refuses root"
                : "PostgreSQL runs as " + name + " (uid " + uid + "), the lab's own user";
    }

    /** What goes in front of a PostgreSQL program's command line to run it as this account. */
    List<String> commandPrefix() {
        return switched
                ? List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--")
                : List.of();
    }

    /** Makes {@code path} (a file or a directory tree the lab made) this account's. */
    void own(Path path) throws IOException {
        if (!switched) {
            return;
        }
        try (var tree = Files.walk(path)) {
            for (Path p : (Iterable<Path>) tree::iterator) {
                Files.setAttribute(p, "unix:uid", uid);
                Files.setAttribute(p, "unix:gid", gid);
            }
        }
    }

    /**
     * Lets this account reach {@code directory}. A temp directory (mktemp, {@code Files.createTempDirectory}, JUnit's
     * {@code @TempDir}) is closed to everyone else (mode 700), so when the lab switches accounts it adds search
     * permission for others (not read: they still cannot list it) to {@code directory} and to each directory above it
     * that is inside the temp directory ({@code java.io.tmpdir}); anything else above must let others through already,
     * for the lab opens nothing outside the temp directory ({@code /root}, say).
     *
     * @throws IllegalStateException naming the directory that the account cannot pass
     */
    void makeReachable(Path directory) throws IOException {
        if (!switched) {
            return;
        }
        Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
        Path dir = directory.toAbsolutePath().normalize();
        open(dir);
        for (Path above = dir.getParent(); above != null; above = above.getParent()) {
            if (above.startsWith(tmp) && !above.equals(tmp)) {
                open(above);
            } else if (!Files.getPosixFilePermissions(above).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                throw new IllegalStateException("PostgreSQL runs as " + name + ", which cannot reach " + dir + ": "
                        + above + " lets no other user through (no search permission for others). Use a directory "
                        + "under " + tmp + ", or chmod o+x " + above);
            }
        }
    }

    private static void open(Path dir) throws IOException {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(dir);
        if (permissions.add(PosixFilePermission.OTHERS_EXECUTE)) {
            Files.setPosixFilePermissions(dir, permissions);
        }
    }

    private static int ownId(String attribute) {
        try {
            // /proc/self belongs to the process's effective user and group: no native call, no module to open.
            return (Integer) Files.getAttribute(Path.of("/proc/self"), attribute);
        } catch (IOException e) {
            throw new IllegalStateException("cannot tell which user the lab runs as (/proc/self): " + e, e);
        }
    }

    private static String passwdEntry(String name) {
        if (!name.matches("[a-zA-Z0-9._][a-zA-Z0-9._-]*")) {
            return null;
        }
        String out = run("getent", "passwd", name);
        return out == null || out.isBlank() ? null : out.lines().findFirst().orElse(null);
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    private static String run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
