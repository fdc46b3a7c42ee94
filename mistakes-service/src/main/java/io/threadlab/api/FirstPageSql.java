package io.threadlab.api;

import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * Logs once, at INFO, the SQL that Hibernate sent for the first page of each kind read through it ({@code orm}: the
 * page of {@code ?access=orm}; the mistakes service has one more), so that what the ORM path asks of PostgreSQL is
 * seen rather than guessed, in every service's log and in docs/database.md.
 * <p>
 * It listens where Hibernate ORM and Hibernate Reactive both write each statement: the category
 * {@code org.hibernate.SQL} at DEBUG. (A StatementInspector would see ORM's alone: Hibernate Reactive 3.2 never calls
 * one. {@code quarkus.hibernate-orm.log.sql} would print every statement of every request.) Only while a first page is
 * being read does it lower that category to DEBUG, keeping its records off the console; when no first page is left to
 * record it restores both, so that Hibernate then formats no statement for the log and a measured run pays nothing
 * for this.
 * <p>
 * The statements kept are those of the first request alone, whatever overlaps it: the ones written on its duplicated
 * Vert.x context (which Quarkus gives each request, on the event loop, on workers and on virtual threads) or, where a
 * thread has none, on its thread. A first page that fails is not logged; the next one is recorded instead.
 */
@ApplicationScoped
public class FirstPageSql {

    private static final Logger LOG = Logger.getLogger(FirstPageSql.class);
    /** Held here: a java.util.logging logger nobody references may be collected, and its level with it. */
    private static final java.util.logging.Logger HIBERNATE_SQL =
            java.util.logging.Logger.getLogger("org.hibernate.SQL");

    private final Map<String, List<String>> logged = new ConcurrentHashMap<>();
    private final Set<Recording> recording = ConcurrentHashMap.newKeySet();
    private final Handler listener = new Handler() {
        @Override
        public void publish(LogRecord record) {
            Object request = currentRequest();
            for (Recording first : recording) {
                if (first.request == request) {
                    first.statements.add(record.getMessage());
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level levelBefore;
    private boolean consoleBefore;

    /**
     * Starts recording the statements of this request, if it reads the first page of its kind; end it with
     * {@link Recording#end}, whether the page was read or not.
     */
    public Recording begin(String page) {
        if (logged.containsKey(page)) {
            return Recording.NONE;
        }
        synchronized (this) {
            if (logged.containsKey(page) || recording.stream().anyMatch(first -> first.page.equals(page))) {
                return Recording.NONE;
            }
            if (recording.isEmpty()) {
                levelBefore = HIBERNATE_SQL.getLevel();
                consoleBefore = HIBERNATE_SQL.getUseParentHandlers();
                HIBERNATE_SQL.addHandler(listener);
                HIBERNATE_SQL.setUseParentHandlers(false);
                HIBERNATE_SQL.setLevel(Level.FINE);
            }
            Recording first = new Recording(this, page, currentRequest());
            recording.add(first);
            return first;
        }
    }

    /** The statements of the first page of this kind, once it has been logged; none before. */
    public List<String> statements(String page) {
        return logged.getOrDefault(page, List.of());
    }

    private synchronized void ended(Recording first, boolean read) {
        recording.remove(first);
        if (read) {
            List<String> statements = List.copyOf(first.statements);
            logged.put(first.page, statements);
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < statements.size(); i++) {
                text.append('\n').append(i + 1).append(": ").append(statements.get(i));
            }
            LOG.infof("The first page through Hibernate (%s) sent PostgreSQL %d statements:%s", first.page,
                    statements.size(), text);
        }
        if (recording.isEmpty()) {
            HIBERNATE_SQL.setLevel(levelBefore);
            HIBERNATE_SQL.setUseParentHandlers(consoleBefore);
            HIBERNATE_SQL.removeHandler(listener);
        }
    }

    private static Object currentRequest() {
        Context context = Vertx.currentContext();
        return context != null && VertxContext.isDuplicatedContext(context) ? context : Thread.currentThread();
    }

    /** One request's recording: its statements, kept until it ends. */
    public static final class Recording {

        /** What a request that is not the first of its kind records: nothing. */
        static final Recording NONE = new Recording(null, null, null);

        private final FirstPageSql owner;
        private final String page;
        private final Object request;
        private final List<String> statements = new CopyOnWriteArrayList<>();

        private Recording(FirstPageSql owner, String page, Object request) {
            this.owner = owner;
            this.page = page;
            this.request = request;
        }

        /** The request is over: its statements are logged if it read the page, and dropped if it failed. */
        public void end(boolean read) {
            if (owner != null) {
                owner.ended(this, read);
            }
        }
    }
}
