package io.threadlab.api;

import org.eclipse.microprofile.config.Config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How {@code GET /api/articles} reads its page, chosen per request with {@code ?access=}: the same rows and the same
 * JSON either way, only the code between the request and PostgreSQL differs.
 */
public enum DataAccess {
    /**
     * THE query by hand ({@code article-page.sql}) through the variant's own database client, one statement: JDBC on
     * workers and virtual threads, the reactive client on the event loop. The default, and the lab's reference.
     */
    JDBC,
    /**
     * The same page through Hibernate with Panache ({@code io.threadlab.api.orm}): Hibernate ORM where threads may
     * block, Hibernate Reactive on the event loop. Its statements: {@code orm.PageQueries}.
     */
    ORM;

    /**
     * The settings that decide what the ORM path costs, as /lab/runtime reports them (those config resolves, and the
     * Hibernate ones only where the build has Hibernate): Hibernate's own, and the datasource's the JDBC path shares.
     */
    private static final List<String> SETTINGS = List.of(
            "quarkus.hibernate-orm.second-level-caching-enabled",
            "quarkus.hibernate-orm.schema-management.strategy",
            "quarkus.hibernate-orm.log.sql",
            "quarkus.hibernate-orm.fetch.batch-size",
            "quarkus.hibernate-orm.query.fail-on-pagination-over-collection-fetch",
            "quarkus.hibernate-orm.database.version-check.enabled",
            "quarkus.hibernate-orm.database.start-offline",
            "quarkus.datasource.db-version",
            "quarkus.datasource.jdbc.max-size",
            "quarkus.datasource.jdbc.additional-jdbc-properties.prepareThreshold",
            "quarkus.datasource.reactive.max-size",
            "quarkus.datasource.reactive.cache-prepared-statements");
    private static final String HIBERNATE_SETTINGS = "quarkus.hibernate-orm.";

    /** How the query parameter, the errors and /lab/runtime spell it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * {@code ?access=} as given: none (or blank) is {@link #JDBC}, today's page; a value the service does not know is
     * its 400, naming the accepted values, and nothing is read.
     */
    public static DataAccess requested(String access) {
        if (access == null || access.isBlank()) {
            return JDBC;
        }
        for (DataAccess kind : values()) {
            if (kind.label().equals(access.trim())) {
                return kind;
            }
        }
        throw new BadRequest("access must be " + String.join(" or ", Stream.of(values())
                .map(DataAccess::label).toList()), "access=" + access + " was given");
    }

    /**
     * What this build serves and with which settings, as /lab/runtime reports it; see {@link HibernatePage}.
     *
     * @param queryPlans how many query plans Hibernate holds now (null without Hibernate)
     */
    public record InForce(List<String> served, Map<String, String> settings, Integer queryPlans) {

        /** @param hibernate the build's page reader through Hibernate; null where the build has none */
        static InForce of(HibernatePage<?> hibernate, Config config) {
            boolean hibernateInBuild = hibernate != null;
            List<DataAccess> served = hibernateInBuild ? List.of(JDBC, ORM) : List.of(JDBC);
            Map<String, String> settings = new LinkedHashMap<>();
            for (String key : SETTINGS) {
                if (hibernateInBuild || !key.startsWith(HIBERNATE_SETTINGS)) {
                    config.getOptionalValue(key, String.class).ifPresent(value -> settings.put(key, value));
                }
            }
            return new InForce(served.stream().map(DataAccess::label).toList(), settings,
                    hibernateInBuild ? hibernate.queryPlans() : null);
        }
    }
}
