package io.threadlab.experiment.plan;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * One knob or dimension of the lab, declared once: its name (as results.json, results.csv and the manifest write it),
 * the flag that sets it and its help, its unit, where its default comes from (.env, the one source of the knobs'
 * defaults, or a value of its own), the values it accepts, whether it changes between windows of one warm JVM, needs
 * a JVM of its own, or holds for the whole run, how a window's name shows it, and where it takes effect: a Quarkus
 * setting of the variants (and so the manifest's knobs and compose's variable), or a query parameter of the window's
 * requests.
 * {@code run}, {@code map} and {@code predict} make their options from these declarations ({@code AxisOptions}); the
 * plan, the knobs, the CSV columns and the window names iterate over them. A new axis is one declaration here (or
 * {@link #register} from elsewhere), its default in .env where it has one, and its effect in the services.
 *
 * <p>JVM axes are left out of names at the run's own value (a JVM with nothing but the run's knobs is named by its
 * variant alone, as it always was); window axes are left out at their {@code quiet} value, so that a window of
 * today's runs is named as before.
 */
public final class Axis<T extends Comparable<T>> {

    public enum Scope {
        /** Changes between windows of one warm JVM (the delay service is told the wait, k6 makes the users). */
        WINDOW,
        /** Set when the JVM starts: each value a JVM of its own. */
        JVM,
        /** One value for the whole run, every JVM alike: a knob, but no dimension of the grid (no column, no name). */
        RUN
    }

    private final String name;
    private final Scope scope;
    private final Class<T> type;
    private final Function<String, T> reader;
    private final Flag flag;
    private final Accepts<T> accepts;
    private final Naming<T> naming;
    private final Effect effect;
    private final String envKey;
    private final T fallback;
    private final Function<T, String> words;
    private final boolean calibratedApart;

    /**
     * How the axis is asked for on the command line.
     *
     * @param name      the flag of {@code run} and {@code map}, which take a list where the axis is a dimension
     * @param pointName the flag of {@code predict}, which asks about one point ({@code --users} for {@code --levels})
     * @param label     the value's name in the help, e.g. {@code MS}
     * @param help      what it sets, for every command's help; each adds where its default comes from
     * @param predictNote what a prediction takes as the same at another value, or null
     */
    public record Flag(String name, String pointName, String label, String help, String predictNote) {
    }

    /**
     * How a window's name shows the axis.
     *
     * @param prefix what a window's name writes before the value ("-cpu" in {@code imperative-cpu0.25-...})
     * @param suffix what it writes after ("ms" in {@code -300ms})
     * @param digits the value's form in a name, as a regular expression
     * @param quiet  a window axis' value its name leaves out, or null to name every value
     */
    public record Naming<T>(String prefix, String suffix, String digits, T quiet) {
    }

    /**
     * Where the axis takes effect: a Quarkus setting of every variant (the runner passes it as {@code -Dkey=value},
     * compose as its .env variable, the manifest lists it among the knobs), a query parameter of the requests ({@code
     * ?access=orm}: the service reads it, k6 sends it), or a variable of k6's environment ({@code GOGC}: the manifest
     * lists it with k6). Any may be null: the runner applies such an axis itself (the CPU quota confines the JVM, the
     * users are k6's virtual users, the delay is told to the delay service, the fan-out and the downstream choose it).
     */
    public record Effect(String quarkusProperty, String query, String k6Environment) {
    }

    Axis(AxisBuilder<T> b) {
        this.name = b.name;
        this.scope = b.scope;
        this.type = b.type;
        this.reader = b.reader;
        this.flag = new Flag(b.flag, b.pointFlag != null ? b.pointFlag : b.flag, b.label, b.help, b.predictNote);
        this.accepts = b.accepts;
        this.naming = new Naming<>(b.idPrefix, b.idSuffix, b.idDigits, b.quiet);
        this.effect = new Effect(b.quarkusProperty, b.query, b.k6Environment);
        this.envKey = b.envKey;
        this.fallback = b.fallback;
        this.words = b.words;
        this.calibratedApart = b.calibratedApart;
    }

    /** Starts the declaration of an axis named {@code name} (results.json's and the CSV's name for it). */
    public static <T extends Comparable<T>> AxisBuilder<T> named(String name, Scope scope, Class<T> type,
                                                             Function<String, T> reader) {
        return new AxisBuilder<>(name, scope, type, reader);
    }

    /** The most calls one fan-out request may make: the services' {@code lab.fanout.max-calls}. */
    public static final int MAX_FAN_OUT = 64;
    /** The collectors {@code --gc} names, as {@code -XX:+Use<name>GC} spells them. */
    public static final List<String> GCS = List.of("Serial", "Parallel", "G1", "Z");

    /** The closed model's concurrent users: k6's virtual users, each with one request at a time and no think time. */
    public static final Axis<Integer> USERS = named("users", Scope.WINDOW, Integer.class, Integer::valueOf)
            .flag("--levels", "USERS", "Closed-model load levels, in concurrent users.").pointFlag("--users")
            .accepts(Accepts.atLeast(1)).id("closed-", "", "\\d+").words(v -> String.format(Locale.ROOT,
                    "%,d users", v)).build();
    /**
     * The burst's size ({@code --shape burst}): that many requests fired at once, each on a connection of its own
     * (k6/burst.js), and the time until the last is answered. A window has either users or requests: the closed
     * model's or the burst's scenario.
     */
    public static final Axis<Integer> REQUESTS = named("burst_requests", Scope.WINDOW, Integer.class, Integer::valueOf)
            .flag("--requests", "N", "The burst's size, with --shape burst: that many requests fired at once, each on a"
                    + " connection of its own.").accepts(Accepts.between(1, Burst.MOST_REQUESTS,
                    "requests from 1 to " + Burst.MOST_REQUESTS)).id("burst-", "", "\\d+")
            .words(v -> String.format(Locale.ROOT, "%,d requests at once", v)).build();
    /** The downstream's wait, in milliseconds: what the delay service is told before each window. */
    public static final Axis<Integer> DELAY_MS = named("delay_ms", Scope.WINDOW, Integer.class, Integer::valueOf)
            .flag("--delay-ms", "MS", "The downstream's wait, in ms: the delay service is told it before each window"
                    + " (with --downstream db, the query's server-side wait; 0: the query alone).")
            .fromEnv("LAB_DELAY_MS")
            .predictNote("another delay keeps the CPU per request and the overhead measured above the calibration's"
                    + " delay, and says so; one at or past the client's read timeout is refused")
            .accepts(Accepts.between(0, 60_000, "delays from 0 to 60000 ms")).id("-", "ms", "\\d+")
            .words(v -> v + " ms").build();
    /** The JVM's CPU quota, in CPUs (its cgroup's or its container's). */
    public static final Axis<Double> CPUS = named("cpu_quota", Scope.JVM, Double.class, Double::valueOf)
            .flag("--cpus", "CPUS", "CPU quota per variant.").fromEnv("LAB_CPUS")
            .predictNote("the CPU per request is taken as the same at another")
            .accepts(new Accepts<>(v -> v > 0 && v <= 64, "a quota above 0 and at most 64 (e.g. 0.5)")).id("-cpu", "", "[0-9.]+")
            .words(v -> v + " CPU").build();
    /** The worker pool's maximum: where the imperative variants run their requests. */
    public static final Axis<Integer> WORKER_MAX = named("worker_max", Scope.JVM, Integer.class, Integer::valueOf)
            .flag("--worker-max", "N", "Worker pool maximum, for the variants whose requests run on workers.")
            .fromEnv("LAB_WORKER_POOL_MAX").quarkus("quarkus.thread-pool.max-threads").accepts(Accepts.atLeast(1))
            .id("-w", "", "\\d+").build();
    /** The REST client's connection pool to the downstream. */
    public static final Axis<Integer> POOL_SIZE = named("pool_size", Scope.JVM, Integer.class, Integer::valueOf)
            .flag("--pool-size", "N", "REST-client connection pool to the delay service.")
            .fromEnv("LAB_CONNECTION_POOL_SIZE").quarkus("quarkus.rest-client.delay.connection-pool-size")
            .accepts(Accepts.atLeast(1)).id("-pool", "", "\\d+").build();
    /** The database connection pool (Agroal's on workers and virtual threads, the reactive client's on the loop). */
    public static final Axis<Integer> DB_POOL_SIZE = named("db_pool_size", Scope.JVM, Integer.class, Integer::valueOf)
            .flag("--db-pool-size", "N", "The database pool of every variant.").fromEnv("LAB_DB_POOL_SIZE")
            .quarkus("lab.db.pool-size").accepts(Accepts.atLeast(1)).id("-dbpool", "", "\\d+").build();
    /** The database's CPU quota, in CPUs: a setting of the run's PostgreSQL, which its database windows carry. */
    public static final Axis<Double> DB_CPUS = named("db_cpu_quota", Scope.JVM, Double.class, Double::valueOf)
            .flag("--db-cpus", "CPUS", "The database's CPU quota.").fromEnv("LAB_DB_CPUS")
            .predictNote("its CPU per query is taken as the same at another").accepts(Accepts.aboveZero("1.0"))
            .id("-dbcpu", "", "[0-9.]+").build();
    /** What the requests wait on: the delay service, or the database. Named only when it is the database. */
    public static final Axis<Downstream> DOWNSTREAM = named("downstream", Scope.WINDOW, Downstream.class,
            Downstream::parse).flag("--downstream", "KIND", "What the requests wait on: http (the delay service) or"
                    + " db (the lab's PostgreSQL through a pool).").fallback(Downstream.HTTP).accepts(Accepts.any()).id("-", "", "db|http")
            .quiet(Downstream.HTTP).calibratedApart()
            .words(v -> v == Downstream.DB ? "the database" : "the delay service").build();
    /**
     * The calls to the delay service each request makes ({@code GET /api/fanout?n=N}). Named only above 1: a window of
     * one call is today's {@code GET /api}.
     */
    public static final Axis<Integer> FAN_OUT = named("fan_out", Scope.WINDOW, Integer.class, Integer::valueOf)
            .flag("--fan-out", "N", "Calls to the delay service per request: 1 is GET /api, more is"
                    + " GET /api/fanout?n=N, at most the connection pool.").fallback(1)
            .predictNote("the CPU per request taken as N × one call's")
            .accepts(Accepts.between(1, MAX_FAN_OUT, "numbers of calls from 1 to " + MAX_FAN_OUT
                    + " (the services' lab.fanout.max-calls)"))
            .id("-fan", "", "\\d+").quiet(1).words(v -> v == 1 ? "1 call" : v + " calls").build();
    /** Whether a request's calls run at once or one after another. Named only when sequential. */
    public static final Axis<FanOutMode> FAN_OUT_MODE = named("fan_out_mode", Scope.WINDOW, FanOutMode.class,
            FanOutMode::parse).flag("--fan-out-mode", "MODE", "How a request makes its calls: parallel (all at once)"
                    + " or sequential (one after another).").fallback(FanOutMode.PARALLEL).accepts(Accepts.any())
            .id("-", "", "parallel|sequential").quiet(FanOutMode.PARALLEL).words(FanOutMode::label).build();

    /**
     * How the database's page is read: the plain client, or Hibernate (a query parameter of the request, {@code
     * ?access=orm}). Named only where it is Hibernate; each kind calibrates a capacity model of its own.
     */
    public static final Axis<DbAccess> DB_ACCESS = named("db_access", Scope.WINDOW, DbAccess.class, DbAccess::parse)
            .flag("--db-access", "KIND", "How the database's page is read, with --downstream db: jdbc (JDBC through"
                    + " Agroal; on the event loop, the reactive PG client) or orm (Hibernate ORM with Panache; on the"
                    + " event loop, Hibernate Reactive with Panache).").fallback(DbAccess.JDBC).accepts(Accepts.any())
            .query("access").calibratedApart().id("-", "", "jdbc|orm").quiet(DbAccess.JDBC)
            .words(v -> v == DbAccess.ORM ? "through Hibernate" : "through the plain client").build();

    /** -Xms and -Xmx of every service. */
    public static final Axis<String> HEAP = named("heap", Scope.RUN, String.class, String::valueOf)
            .flag("--heap", "SIZE", "-Xms and -Xmx of every service.").fromEnv("LAB_HEAP")
            .accepts(new Accepts<>(v -> v.matches("\\d+[kmgKMG]"), "like 512m or 1g")).build();
    /** The garbage collector of every service. */
    public static final Axis<String> GC = named("gc", Scope.RUN, String.class, String::valueOf)
            .flag("--gc", "GC", "Serial, Parallel, G1 or Z for every service (Serial is what the JVM picks at 1 CPU"
                    + " anyway).").fromEnv("LAB_GC")
            .accepts(new Accepts<>(GCS::contains, "one of " + GCS)).build();
    /** The REST client's connect timeout. */
    public static final Axis<Integer> CONNECT_TIMEOUT_MS = named("connect_timeout_ms", Scope.RUN, Integer.class,
            Integer::valueOf).flag("--connect-timeout-ms", "MS", "Client connect timeout.")
            .fromEnv("LAB_CONNECT_TIMEOUT_MS").quarkus("quarkus.rest-client.delay.connect-timeout")
            .accepts(Accepts.atLeast(1)).build();
    /** The REST client's read timeout: every delay must be below it. */
    public static final Axis<Integer> READ_TIMEOUT_MS = named("read_timeout_ms", Scope.RUN, Integer.class,
            Integer::valueOf).flag("--read-timeout-ms", "MS", "Client read timeout; every delay must be below it.")
            .fromEnv("LAB_READ_TIMEOUT_MS").quarkus("quarkus.rest-client.delay.read-timeout")
            .accepts(Accepts.atLeast(1)).build();
    /** PostgreSQL's max_connections, where a run has the database. */
    public static final Axis<Integer> DB_MAX_CONNECTIONS = named("db_max_connections", Scope.RUN, Integer.class,
            Integer::valueOf).flag("--db-max-connections", "N", "PostgreSQL's max_connections.")
            .fromEnv("LAB_DB_MAX_CONNECTIONS").accepts(Accepts.atLeast(1)).build();
    /** How far k6's heap grows over what it holds live before its collector runs (Go's GOGC, in percent). */
    public static final Axis<Integer> K6_GOGC = named("k6_gogc", Scope.RUN, Integer.class, Integer::valueOf)
            .flag("--k6-gogc", "PERCENT", "k6's GOGC: its heap's growth over the live heap before it collects.")
            .fromEnv("LAB_K6_GOGC").k6Environment("GOGC").accepts(Accepts.atLeast(1)).build();
    /** The heap k6's collector keeps under however long it runs (Go's GOMEMLIMIT, a soft limit). */
    public static final Axis<String> K6_MEMORY_LIMIT = named("k6_memory_limit", Scope.RUN, String.class,
            String::valueOf).flag("--k6-memory-limit", "SIZE", "k6's GOMEMLIMIT: the heap its collector keeps under.")
            .fromEnv("LAB_K6_MEMORY_LIMIT").k6Environment("GOMEMLIMIT").accepts(new Accepts<>(v -> v.matches(
                    "\\d+(B|KiB|MiB|GiB|TiB)"), "like 512MiB or 8GiB")).build();

    private static final List<Axis<?>> DECLARED = List.of(CPUS, WORKER_MAX, POOL_SIZE, DB_POOL_SIZE, DB_CPUS,
            DOWNSTREAM, DELAY_MS, FAN_OUT, FAN_OUT_MODE, DB_ACCESS, USERS, REQUESTS, HEAP, GC, CONNECT_TIMEOUT_MS,
            READ_TIMEOUT_MS, DB_MAX_CONNECTIONS, K6_GOGC, K6_MEMORY_LIMIT);
    /** Axes declared elsewhere ({@link #register}), after the lab's own. */
    private static final List<Axis<?>> REGISTERED = new CopyOnWriteArrayList<>();
    /** {@link #all()}, made again only when an axis is registered or leaves. */
    private static volatile List<Axis<?>> all = order();

    /**
     * Every axis, in the order names and tables give them: the JVM's first, then the window's (the scenario's, users
     * or requests, last), then the run's knobs; registered axes after the lab's own of their scope.
     */
    public static List<Axis<?>> all() {
        return all;
    }

    private static List<Axis<?>> order() {
        List<Axis<?>> ordered = new java.util.ArrayList<>();
        for (Scope scope : List.of(Scope.JVM, Scope.WINDOW, Scope.RUN)) {
            DECLARED.stream().filter(a -> a.scope == scope && !a.scenario()).forEach(ordered::add);
            REGISTERED.stream().filter(a -> a.scope == scope).forEach(ordered::add);
            if (scope == Scope.WINDOW) {
                ordered.add(USERS);
                ordered.add(REQUESTS);
            }
        }
        return List.copyOf(ordered);
    }

    /** The dimensions of the grid: every axis but the run's knobs (results.csv's columns, a point's axes). */
    public static List<Axis<?>> dimensions() {
        return all.stream().filter(a -> a.scope != Scope.RUN).toList();
    }

    /**
     * Adds an axis declared outside this class (a test's toy one, say) until the returned handle is closed: its flag
     * joins the commands made after, its values the plans, points, names and columns.
     */
    public static synchronized Registration register(Axis<?> axis) {
        if (named(axis.name).isPresent()) {
            throw new IllegalArgumentException("an axis named " + axis.name + " exists already");
        }
        REGISTERED.add(axis);
        all = order();
        return () -> {
            synchronized (Axis.class) {
                REGISTERED.remove(axis);
                all = order();
            }
        };
    }

    /** A registered axis, until closed. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    public static Optional<Axis<?>> named(String name) {
        return all().stream().filter(a -> a.name.equals(name)).findFirst();
    }

    public String name() {
        return name;
    }

    public Scope scope() {
        return scope;
    }

    public Class<T> type() {
        return type;
    }

    public Flag flag() {
        return flag;
    }

    public Naming<T> naming() {
        return naming;
    }

    public Effect effect() {
        return effect;
    }

    /** The .env key of the axis' default, or null where it has none there. */
    public String envKey() {
        return envKey;
    }

    /** The default where .env has none: one call, in parallel, to the delay service. Null: the mode's, or none. */
    public T fallback() {
        return fallback;
    }

    /** A value as the flag or results.json gives it; a clear message naming the flag when it is not one. */
    public T read(String text) {
        return read(text, flag.name());
    }

    /** A value as {@code flagUsed} gave it (the command's own: {@code --users} in predict), refused naming it. */
    public T read(String text, String flagUsed) {
        try {
            return reader.apply(text.trim());
        } catch (IllegalArgumentException e) {
            if (e instanceof NumberFormatException || e.getMessage() == null) {
                throw new IllegalArgumentException(flagUsed + " takes " + type.getSimpleName()
                        .toLowerCase(Locale.ROOT) + " values, was '" + text + "'");
            }
            throw e; // an enum's own message names its values
        }
    }

    /**
     * Refuses values the axis does not accept, naming {@code flagUsed} (the command's own: {@code --users} in
     * predict, {@code --levels} in run) and every value given: "--worker-max must be 1 or more, was [0]".
     */
    public List<T> check(List<T> values, String flagUsed) {
        List<T> refused = values.stream().filter(v -> v == null || !accepts.test().test(v)).toList();
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException(flagUsed + " must be " + accepts.rule() + ", was "
                    + (values.size() == 1 ? String.valueOf(values.getFirst()) : String.valueOf(values)));
        }
        return values;
    }

    /** A value of this axis from JSON (numbers come back as whatever Jackson chose, enums as their label). */
    public T cast(Object value) {
        if (value == null || type.isInstance(value)) {
            return type.cast(value);
        }
        return read(String.valueOf(value));
    }

    /** The value as results.json and the manifest write it: a number, or an enum's label. */
    public Object json(Object value) {
        return value instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : value;
    }

    /** The value as a window's name and a setting write it: {@code 0.5} not {@code 0.50}, {@code 1} not {@code 1.0}. */
    public String text(T value) {
        if (value instanceof Double d) {
            return d % 1 == 0 ? String.valueOf(d.intValue()) : String.valueOf(d);
        }
        return value instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : String.valueOf(value);
    }

    /** The value in a table's words: "300 ms", "3,000 users", "the database". */
    public String words(T value) {
        return words != null ? words.apply(value) : name.replace('_', ' ') + " " + value;
    }

    /** The value's part of a window's name, e.g. {@code -cpu0.25}. */
    public String idPart(T value) {
        return naming.prefix() + text(value) + naming.suffix();
    }

    /** Whether each value is work of its own kind, calibrated apart ({@link WorkKind}). */
    public boolean calibratedApart() {
        return calibratedApart;
    }

    /** Whether the axis is a window's scenario (the closed model's users, the burst's requests), named last. */
    public boolean scenario() {
        return this == USERS || this == REQUESTS;
    }

    /** Whether a window's name leaves this value out. */
    public boolean quiet(Object value) {
        return naming.quiet() != null && naming.quiet().equals(value);
    }

    @Override
    public String toString() {
        return name;
    }
}
