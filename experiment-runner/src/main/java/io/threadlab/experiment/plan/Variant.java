package io.threadlab.experiment.plan;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A system under test, described once: which module runs, where it listens, what k6 calls, how it threads, which
 * stack it is on, what it is for, how the report draws it and whether the default run measures it. The analysis,
 * the report, the CLI's defaults and the tests take all of this from here; only the module itself, the aggregator
 * pom.xml, compose.yaml, kubernetes/, monitoring/ (Prometheus' targets, Grafana's queries), the scripts
 * compose-test.sh and dev-mode-check.sh, and mistakes-service (the gallery's paths and ports) name a variant again,
 * and VariantParityTest, ComposeFileTest, KubernetesManifestsTest and VariantListsTest check they do.
 *
 * @param endpoints  what k6 calls, by downstream and fan-out
 * @param threads    where request code runs while it waits for the downstream
 * @param stack      the REST stack (classic RESTEasy, or Quarkus REST)
 * @param colour     the report's colour, as #rrggbb
 * @param defaultRun whether {@code ./experiment run} measures it without {@code --variants}
 * @param properties extra Quarkus settings of this variant only (beyond the knobs every variant gets)
 * @param jvmOptions extra JVM options of this variant only
 * @param spoils     for a mistake, the label of the correct variant (or reference) it is measured against
 */
public record Variant(String label, String module, int port, Endpoints endpoints, Role role, Threads threads,
                      Stack stack, String colour, boolean defaultRun, String description,
                      Map<String, String> properties, List<String> jvmOptions, String spoils) {

    /**
     * What k6 calls, by what the window's requests do.
     *
     * @param path       with the delay service downstream (null: no such endpoint)
     * @param dbPath     with the database downstream (null: no such endpoint)
     * @param fanOutPath with {@code ?n=N&mode=M}, for more than one call to the delay service per request (null: no
     *                   such endpoint)
     * @param fanOutMode the one mode a fan-out mistake calls, whatever else the grid has (null: every mode); what it
     *                   spoils is measured against it in the other mode (see {@link #referencePoint})
     * @param dbAccess   the ways its database endpoint reads the page ({@code ?access=orm} for Hibernate)
     */
    public record Endpoints(String path, String dbPath, String fanOutPath, FanOutMode fanOutMode,
                            Set<DbAccess> dbAccess) {

        public Endpoints {
            dbAccess = Set.copyOf(dbAccess);
        }

        /** The delay service's request only. */
        static Endpoints http(String path) {
            return new Endpoints(path, null, null, null, Set.of());
        }

        /** The database's request only, through the plain client. */
        static Endpoints database(String path) {
            return new Endpoints(null, path, null, null, Set.of(DbAccess.JDBC));
        }

        /** The database's request through Hibernate only: a mistake of the ORM path. */
        static Endpoints hibernate(String path) {
            return new Endpoints(null, path, null, null, Set.of(DbAccess.ORM));
        }

        /** More than one call per request only, in {@code mode} (null: either). */
        static Endpoints fanOut(String path, FanOutMode mode) {
            return new Endpoints(null, null, path, mode, Set.of());
        }
    }

    public String path() {
        return endpoints.path();
    }

    public String dbPath() {
        return endpoints.dbPath();
    }

    public String fanOutPath() {
        return endpoints.fanOutPath();
    }

    public FanOutMode fanOutMode() {
        return endpoints.fanOutMode();
    }

    /** Every variant module answers the same query at this path: the lab's page of articles (lab-database). */
    public static final String ARTICLES = "/api/articles";
    /** Every variant module fans out to the delay service at this path ({@code ?n=N&mode=parallel|sequential}). */
    public static final String FAN_OUT = "/api/fanout";

    public enum Role {
        /** One of the design card's three threading models. */
        MODEL,
        /** The imperative threading model on the reactive variants' stack: tells stack from model. */
        CONTROL,
        /** A common way to use a model wrongly. */
        MISTAKE,
        /** The right way to do what a mistake does wrongly, when no design-card variant does the same work. */
        REFERENCE
    }

    /** Where request code runs, and so what waits for the downstream. */
    public enum Threads {
        /** The worker pool ({@code executor-thread-N}): a worker is held for the whole call. */
        WORKER,
        /** The event loops ({@code vert.x-eventloop-thread-N}): nothing waits; the reply is an event. */
        EVENT_LOOP,
        /** Virtual threads on carriers: the virtual thread waits, unmounted; no carrier is held. */
        VIRTUAL
    }

    public enum Stack {
        /** {@code quarkus-resteasy} with the classic REST client (Apache HttpClient). */
        CLASSIC,
        /** {@code quarkus-rest} with the Quarkus REST client (Vert.x). */
        QUARKUS_REST
    }

    /** Every endpoint of a variant module: the delay service, the database's page, the fan-out. */
    private static final Endpoints EVERY = new Endpoints("/api", ARTICLES, FAN_OUT, null,
            Set.of(DbAccess.JDBC, DbAccess.ORM));

    public static final Variant IMPERATIVE = new Variant("imperative", "imperative-service", 8081, EVERY, Role.MODEL,
            Threads.WORKER, Stack.CLASSIC, "#d62728", true, "classic RESTEasy, worker threads", Map.of(), List.of(),
            null);
    public static final Variant REACTIVE = new Variant("reactive", "reactive-service", 8082, EVERY, Role.MODEL,
            Threads.EVENT_LOOP, Stack.QUARKUS_REST, "#1f77b4", true, "Quarkus REST, event loop (Mutiny Uni)", Map.of(),
            List.of(), null);
    public static final Variant VIRTUAL_THREAD = new Variant("virtual-thread", "virtual-thread-service", 8083, EVERY,
            Role.MODEL, Threads.VIRTUAL, Stack.QUARKUS_REST, "#2ca02c", true, "Quarkus REST, virtual threads",
            Map.of(), List.of(), null);
    public static final Variant IMPERATIVE_REST = new Variant("imperative-rest", "imperative-rest-service", 8084,
            EVERY, Role.CONTROL, Threads.WORKER, Stack.QUARKUS_REST, "#ff7f0e", false,
            "Quarkus REST, worker threads (the control)", Map.of(), List.of(), null);

    private static final String MISTAKE_GREY = "#7f7f7f";
    /** The delay client's pool, which two mistakes leave at the REST client's default. */
    public static final String CONNECTION_POOL_SIZE = "quarkus.rest-client.delay.connection-pool-size";
    /**
     * The pool that asks PostgreSQL for more connections than it has: more than .env's max_connections (200) on its
     * own. Its first requests beyond the free slots get "too many clients", answered 503.
     */
    public static final int BEYOND_MAX_CONNECTIONS = 250;

    /** The mistakes gallery: each on a port of its own, so that all can run side by side. */
    public static final List<Variant> MISTAKES = List.of(
            mistake("blocking-event-loop", 8091, "/mistakes/blocking-event-loop", Threads.EVENT_LOOP, "reactive",
                    "a blocking call on the event loop"),
            new Variant("default-connection-pool", "imperative-service", 8092, Endpoints.http("/api"), Role.MISTAKE,
                    Threads.WORKER, Stack.CLASSIC, MISTAKE_GREY, false,
                    "the REST client's default pool of 50", Map.of(CONNECTION_POOL_SIZE, "50"), List.of(),
                    "imperative"),
            new Variant("cpu-on-worker", "mistakes-service", 8093, Endpoints.http("/mistakes/cpu/worker"),
                    Role.REFERENCE, Threads.WORKER, Stack.QUARKUS_REST, "#8c564b", false,
                    "CPU-heavy code on worker threads", Map.of(), List.of(), null),
            mistake("cpu-on-event-loop", 8094, "/mistakes/cpu/event-loop", Threads.EVENT_LOOP, "cpu-on-worker",
                    "CPU-heavy code on the event loop"),
            mistake("cpu-on-virtual-thread", 8095, "/mistakes/cpu/virtual-thread", Threads.VIRTUAL, "cpu-on-worker",
                    "CPU-heavy code on virtual threads"),
            mistake("synchronized-virtual-thread", 8096, "/mistakes/pinning/synchronized", Threads.VIRTUAL,
                    "virtual-thread", "blocking inside synchronized on a virtual thread"),
            mistake("pinned-class-init", 8097, "/mistakes/pinning/class-init", Threads.VIRTUAL, "virtual-thread",
                    "blocking inside a class initialiser on a virtual thread"),
            new Variant("native-call-on-virtual-thread", "mistakes-service", 8098,
                    Endpoints.http("/mistakes/native-call"), Role.MISTAKE, Threads.VIRTUAL, Stack.QUARKUS_REST,
                    MISTAKE_GREY, false, "a blocking native call on a virtual thread", Map.of(),
                    List.of("--enable-native-access=ALL-UNNAMED"), "virtual-thread"),
            // With the database downstream only (--downstream db --mistakes).
            new Variant("jdbc-on-event-loop", "mistakes-service", 8099,
                    Endpoints.database("/mistakes/jdbc-on-event-loop"), Role.MISTAKE, Threads.EVENT_LOOP,
                    Stack.QUARKUS_REST, MISTAKE_GREY, false, "blocking JDBC on the event loop", Map.of(), List.of(),
                    "reactive"),
            new Variant("small-pool-virtual-threads", "virtual-thread-service", 8100, Endpoints.database(ARTICLES),
                    Role.MISTAKE, Threads.VIRTUAL, Stack.QUARKUS_REST, MISTAKE_GREY, false,
                    "a database pool of 2 behind any number of virtual threads", Map.of("lab.db.pool-size", "2"),
                    List.of(), "virtual-thread"),
            new Variant("pool-beyond-max-connections", "virtual-thread-service", 8101, Endpoints.database(ARTICLES),
                    Role.MISTAKE, Threads.VIRTUAL, Stack.QUARKUS_REST, MISTAKE_GREY, false,
                    "a database pool larger than PostgreSQL's free connection slots",
                    Map.of("lab.db.pool-size", String.valueOf(BEYOND_MAX_CONNECTIONS)), List.of(), "virtual-thread"),
            // With more than one call per request only (--fan-out N, N > 1): each has its fan-out path alone.
            new Variant("blocking-join-event-loop", "mistakes-service", 8102,
                    Endpoints.fanOut("/mistakes/fanout/blocking-join", null), Role.MISTAKE, Threads.EVENT_LOOP,
                    Stack.QUARKUS_REST, MISTAKE_GREY, false, "a blocking join of the fan-out's replies on the event loop",
                    Map.of(), List.of(), "reactive"),
            // Parallel only; measured against the imperative variant's sequential fan-out at the same N (the way the
            // same calls are right on workers: one worker makes them in turn), see referencePoint.
            new Variant("fanout-worker-starvation", "imperative-service", 8103,
                    Endpoints.fanOut(FAN_OUT, FanOutMode.PARALLEL), Role.MISTAKE, Threads.WORKER, Stack.CLASSIC,
                    MISTAKE_GREY, false, "a parallel fan-out on the worker pool that runs its requests", Map.of(),
                    List.of(), "imperative"),
            new Variant("fanout-connection-pool", "virtual-thread-service", 8104, Endpoints.fanOut(FAN_OUT, null),
                    Role.MISTAKE, Threads.VIRTUAL, Stack.QUARKUS_REST, MISTAKE_GREY, false,
                    "the REST client's default pool of 50 behind a fan-out on virtual threads",
                    Map.of(CONNECTION_POOL_SIZE, "50"), List.of(), "virtual-thread"),
            // Through Hibernate only (--downstream db --db-access orm): measured against the page through Hibernate.
            new Variant("orm-n-plus-one", "mistakes-service", 8105, Endpoints.hibernate("/mistakes/orm/n-plus-one"),
                    Role.MISTAKE, Threads.WORKER, Stack.QUARKUS_REST, MISTAKE_GREY, false,
                    "a lazy collection loaded per row through Hibernate (N+1)", Map.of(), List.of(),
                    "imperative-rest"),
            new Variant("orm-on-event-loop", "mistakes-service", 8106,
                    Endpoints.hibernate("/mistakes/orm/on-event-loop"), Role.MISTAKE, Threads.EVENT_LOOP,
                    Stack.QUARKUS_REST, MISTAKE_GREY, false, "Hibernate ORM called on the event loop", Map.of(),
                    List.of(), "reactive"));

    private static final List<Variant> DECLARED = Stream.concat(
            Stream.of(IMPERATIVE, REACTIVE, VIRTUAL_THREAD, IMPERATIVE_REST), MISTAKES.stream()).toList();
    /** The declared variants, then any registered ({@link #register}). */
    private static volatile List<Variant> known = DECLARED;

    public Variant {
        properties = Map.copyOf(properties);
        jvmOptions = List.copyOf(jvmOptions);
        if (!colour.matches("#[0-9a-f]{6}")) {
            throw new IllegalArgumentException("colour must be #rrggbb, was " + colour);
        }
    }

    private static Variant mistake(String label, int port, String path, Threads threads, String spoils,
                                   String description) {
        return new Variant(label, "mistakes-service", port, Endpoints.http(path), Role.MISTAKE, threads,
                Stack.QUARKUS_REST, MISTAKE_GREY, false, description, Map.of(), List.of(), spoils);
    }

    public static List<Variant> all() {
        return known;
    }

    /**
     * Adds a variant described outside this class (a test's toy one, say) until the returned handle is closed: the
     * commands accept its label, and the plan, the results and the report treat it as one of the lab's.
     */
    public static synchronized Registration register(Variant variant) {
        if (find(variant.label()).isPresent()) {
            throw new IllegalArgumentException("a variant labelled " + variant.label() + " exists already");
        }
        known = Stream.concat(known.stream(), Stream.of(variant)).toList();
        return () -> {
            synchronized (Variant.class) {
                known = known.stream().filter(v -> v != variant).toList();
            }
        };
    }

    /** A registered variant, until closed. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** A new variant module's endpoints: the same three as the lab's own variants, and both ways to read the page. */
    public static Endpoints everyEndpoint() {
        return EVERY;
    }

    /** The design card's models and the control: the variants with a module of their own. */
    public static List<Variant> services() {
        return known.stream().filter(v -> v.role() == Role.MODEL || v.role() == Role.CONTROL).toList();
    }

    /** What {@code ./experiment run} measures without {@code --variants}. */
    public static List<Variant> defaults() {
        return known.stream().filter(Variant::defaultRun).toList();
    }

    /**
     * The mistakes that have an endpoint at a point of the grid, and what they are measured against, correct variants
     * first: what {@code --mistakes} runs. The database's mistakes come with {@code --downstream db}, the fan-out's
     * with {@code --fan-out} above 1; the others with one call to the delay service.
     */
    public static List<Variant> mistakesWithTheirReferences(Grid grid) {
        List<Variant> mistakes = MISTAKES.stream().filter(v -> grid.points().stream().anyMatch(p -> v.path(p) != null))
                .toList();
        List<String> spoiled = mistakes.stream().map(Variant::spoils).filter(s -> s != null).distinct().toList();
        return Stream.concat(known.stream().filter(v -> v.role() != Role.MISTAKE && spoiled.contains(v.label())),
                mistakes.stream().filter(v -> v.role() == Role.MISTAKE)).toList();
    }

    public static Variant fromLabel(String label) {
        return find(label).orElseThrow(() -> new IllegalArgumentException("unknown variant '" + label
                + "'; choose from " + labels()));
    }

    public static Optional<Variant> find(String label) {
        return known.stream().filter(v -> v.label.equals(label)).findFirst();
    }

    /** The model whose threads are {@code threads}: the imperative variant for workers, and so on. */
    public static Variant model(Threads threads) {
        return known.stream().filter(v -> v.role() == Role.MODEL && v.threads() == threads).findFirst().orElseThrow();
    }

    /** The control variant, if any. */
    public static Optional<Variant> control() {
        return known.stream().filter(v -> v.role() == Role.CONTROL).findFirst();
    }

    /** The variant labels, for messages. */
    public static String labels() {
        return known.stream().map(Variant::label).collect(Collectors.joining(", "));
    }

    /** What k6 calls with this downstream; null where the variant has no endpoint for it. */
    public String path(Downstream downstream) {
        return downstream == Downstream.DB ? dbPath() : path();
    }

    /**
     * What k6 calls at a window's point: its downstream's path, or with more than one call per request the fan-out
     * path and its query; null where the variant has no endpoint for it. One call is today's request exactly, in
     * either mode, so that a run without fan-out and the fan-out's baseline are the same windows.
     */
    public String path(Point at) {
        String path = ownPath(at);
        return path == null ? null : withQuery(path, at);
    }

    private String ownPath(Point at) {
        Downstream downstream = at.has(Axis.DOWNSTREAM) ? at.get(Axis.DOWNSTREAM) : Downstream.HTTP;
        DbAccess access = at.has(Axis.DB_ACCESS) ? at.get(Axis.DB_ACCESS) : DbAccess.JDBC;
        if (access != DbAccess.JDBC && downstream != Downstream.DB
                || downstream == Downstream.DB && !endpoints.dbAccess().contains(access)) {
            return null; // Hibernate reads the database; each database endpoint reads it its own ways
        }
        int calls = at.getOrFallback(Axis.FAN_OUT);
        if (calls == 1) {
            return path(downstream);
        }
        if (downstream != Downstream.HTTP || fanOutPath() == null) {
            return null;
        }
        FanOutMode mode = at.getOrFallback(Axis.FAN_OUT_MODE);
        if (fanOutMode() != null && mode != fanOutMode()) {
            return null;
        }
        return fanOutPath() + "?n=" + calls + "&mode=" + mode.label();
    }

    /**
     * The request with every window axis that takes effect as a query parameter of it ({@link Axis.Effect#query}),
     * where the point has a value its name does not leave out: {@code /api/articles?access=orm}.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String withQuery(String path, Point at) {
        StringBuilder query = new StringBuilder(path);
        for (Axis axis : at.axes()) {
            String parameter = axis.effect().query();
            if (parameter != null && !axis.quiet(at.get(axis))) {
                query.append(query.indexOf("?") < 0 ? '?' : '&').append(parameter).append('=')
                        .append(axis.text(at.get(axis)));
            }
        }
        return query.toString();
    }

    /**
     * Where what a mistake spoils is measured against it: the same point; for a mistake of one fan-out mode, the
     * same calls in the other mode. The parallel fan-out on the worker pool has no right way in parallel on that
     * pool: on workers, the right way is one worker making the calls in turn.
     */
    public Point referencePoint(Point at) {
        if (fanOutMode() == null || !at.has(Axis.FAN_OUT) || at.get(Axis.FAN_OUT) == 1) {
            return at;
        }
        return at.with(Axis.FAN_OUT_MODE, fanOutMode() == FanOutMode.PARALLEL ? FanOutMode.SEQUENTIAL
                : FanOutMode.PARALLEL);
    }

    public boolean isMistake() {
        return role == Role.MISTAKE;
    }

    /** A model or the control: a variant that answers the lab's question (not the gallery's). */
    public boolean answersTheQuestion() {
        return role == Role.MODEL || role == Role.CONTROL;
    }

    @Override
    public String toString() {
        return label;
    }
}
