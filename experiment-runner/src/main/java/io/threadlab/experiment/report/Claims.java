package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.DbAccess;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The published results this lab speaks to, each compared only with this run's point at the claim's own regime (its
 * downstream delay and users): a claim made at 300 ms and 3,000 users says nothing about 10 ms and 50 users.
 */
final class Claims {

    /**
     * A published claim. {@code users} null: the claim names no users (the run's most at the claim's delay).
     *
     * @param numerator   the variant the claim favours, {@code denominator} the one it is measured against
     * @param publishedRss the claim's ratio of memory (RSS) between the two, where it makes one; else null
     */
    record Claim(String source, String claim, String setup, Downstream downstream, DbAccess access, int delayMs,
                 Integer users, Variant numerator, Variant denominator, double published, Double publishedRss,
                 String differences, String howToMeasure) {

        /** A claim on the delay service's side, measured by the map at its delay and users. */
        Claim(String source, String claim, String setup, int delayMs, Integer users, Variant numerator,
              Variant denominator, double published, String differences) {
            this(source, claim, setup, Downstream.HTTP, DbAccess.JDBC, delayMs, users, numerator, denominator,
                    published, null, differences, "./experiment map --delay-ms " + delayMs
                            + (users != null ? " --levels " + users : ""));
        }

        /** At the claim's downstream, data access (Hibernate where the claim's service used JPA), delay and users. */
        boolean at(Point p) {
            Downstream d = p.has(Axis.DOWNSTREAM) ? p.get(Axis.DOWNSTREAM) : Downstream.HTTP;
            DbAccess a = p.has(Axis.DB_ACCESS) ? p.get(Axis.DB_ACCESS) : DbAccess.JDBC;
            return d == downstream && a == access && p.get(Axis.DELAY_MS) == delayMs && (users == null
                    || p.get(Axis.USERS).equals(users));
        }

        /** Where the claim was made, in words: "the database through Hibernate, 0 ms, 500 users". */
        String regime() {
            return (downstream == Downstream.DB ? access == DbAccess.ORM ? "the database through Hibernate, "
                    : "the database, " : "") + delayMs + " ms" + (users != null ? String.format(Locale.ROOT,
                    ", %,d users", users) : "");
        }

        String comparison() {
            return numerator.label() + " / " + denominator.label() + " throughput";
        }
    }

    /**
     * A claim beside this run: the point compared, and the ratio there; no point when the run has none. {@code rss}:
     * the two variants' RSS ratio there, where the claim makes one about memory.
     */
    record Compared(Claim claim, Optional<Point> point, Stats.Ratio thisRun, Optional<Stats.Ratio> rss) {

        /** What to run to measure the claim's regime. */
        String howToMeasure() {
            return claim.howToMeasure();
        }
    }

    private Claims() {
    }

    static List<Claim> published(Run run) {
        Variant worker = Variant.model(Variant.Threads.WORKER);
        Variant eventLoop = Variant.model(Variant.Threads.EVENT_LOOP);
        Variant virtual = Variant.model(Variant.Threads.VIRTUAL);
        String cpu = Numbers.quota(run.confinement().variantCpuQuota());
        // Nothing here measured Tomcat: the baseline's stack is named, not compared with it.
        String spring = "Quarkus here, not Spring; " + cpu + " CPU, not 1; the platform-thread baseline is classic"
                + " RESTEasy, not Tomcat";
        return List.of(
                new Claim("Quarkus team, 2022", eventLoop.label() + " ≈ +30 % throughput over " + worker.label()
                        + " at equal CPU", "Quarkus 2, Java 11, 0.5-CPU containers, 10 ms downstream delay", 10,
                        null, eventLoop, worker, 1.30, "Quarkus " + run.lab().quarkusVersion() + " and "
                        + run.jdk().map(v -> "JDK " + v).orElse("a JDK the run did not record") + " here; " + cpu
                        + " CPU via cgroups, load generator on the same " + run.lab().machineCores()
                        + "-core machine"),
                new Claim("Spring Boot benchmark", "virtual threads +71.6 % over platform threads at 100 users",
                        "Spring Boot (Tomcat), 1 CPU, 10 ms network delay, JMeter", 10, 100, virtual, worker, 1.716,
                        spring),
                new Claim("Spring Boot benchmark", "virtual threads +33.5 % over platform threads at 500 users",
                        "as above", 10, 500, virtual, worker, 1.335, "as above"),
                new Claim("Spring WebFlux comparison", "virtual threads ≈ WebFlux (reactive) throughput",
                        "300 ms sleep, 3000 users", 300, 3000, virtual, eventLoop, 1.0,
                        "Quarkus here, not Spring WebFlux" + cpuUse(run, 300, 3000, virtual, eventLoop)),
                new Claim("Spring MVC + JPA comparison", "virtual threads about 8 % slower than 500 platform"
                        + " threads, at half the memory", "Spring MVC, JPA, MySQL 8; wrk, 500 connections for 30 s;"
                        + " 100 articles each with its comment as JSON; up to 500 platform threads", Downstream.DB,
                        DbAccess.ORM, 0, 500, virtual, worker, 0.92, 0.5, "Quarkus here, JPA as Hibernate ORM with"
                        + " Panache on Agroal; PostgreSQL 18 (the lab's page: 100 articles, their authors and 2"
                        + " comments each, fetched by join), not MySQL 8; " + cpu + " CPU for the service and its own"
                        + " quota for the database, on the load's machine", "./experiment run --downstream db"
                        + " --db-access orm --delay-ms 0 --levels 500 --worker-max 500"),
                new Claim("Quarkus team, 2026", virtual.label() + " +2.6 % over " + worker.label() + " with"
                        + " REST, Hibernate ORM and PostgreSQL", "Quarkus REST, Hibernate ORM, PostgreSQL; 4 cores",
                        Downstream.DB, DbAccess.ORM, 0, null, virtual, worker, 1.026, null, "the lab's page through"
                        + " Hibernate ORM with Panache on " + cpu + " CPU, not 4 cores; the worker-thread variant is"
                        + " classic RESTEasy here", "./experiment run --downstream db --db-access orm --delay-ms 0"));
    }

    /**
     * What the two variants used of their quota at a claim's regime, where the run measured it there (median over
     * their plain windows): the claim's setup had CPU to spare, so whether ours was bound by it matters.
     */
    static String cpuUse(Run run, int delayMs, int users, Variant a, Variant b) {
        Claim regime = new Claim("", "", "", delayMs, users, a, b, 1, "");
        List<Double> shares = new ArrayList<>();
        for (Variant v : List.of(a, b)) {
            double[] used = run.points().stream().filter(regime::at).flatMap(p -> run.plain(v.label(), p).stream())
                    .mapToDouble(w -> w.cpu().cpuCores() / w.at().get(Axis.CPUS)).sorted().toArray();
            if (used.length == 0) {
                return "";
            }
            shares.add(Stats.median(used));
        }
        boolean bound = shares.stream().allMatch(u -> u >= LandscapeChecks.SATURATED);
        return String.format(Locale.ROOT, "; %s %s used %.0f %% and %s %.0f %% of their %s CPU here",
                bound ? "CPU-bound:" : "not both CPU-bound:", a.label(), shares.get(0) * 100, b.label(),
                shares.get(1) * 100, Numbers.quota(run.confinement().variantCpuQuota()));
    }

    /** Every claim whose two variants ran, at its regime when the run measured it there. */
    static List<Compared> of(Run run, Ratios ratios) {
        List<Compared> compared = new ArrayList<>();
        for (Claim c : published(run)) {
            if (!run.variants().contains(c.numerator().label()) || !run.variants().contains(c.denominator().label())) {
                continue;
            }
            Optional<Point> at = run.points().stream().filter(c::at)
                    .filter(p -> !run.plain(c.numerator().label(), p).isEmpty())
                    .reduce((a, b) -> b.get(Axis.USERS) >= a.get(Axis.USERS) ? b : a);
            compared.add(new Compared(c, at, at.map(p -> ratios.of(c.numerator().label(), c.denominator().label(),
                    p, Metric.THROUGHPUT)).orElse(Stats.pairedRatio(List.of())), at.filter(p -> c.publishedRss() != null)
                    .map(p -> ratios.of(c.numerator().label(), c.denominator().label(), p, Metric.RSS))));
        }
        return compared;
    }
}
