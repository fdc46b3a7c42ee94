package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Waits of one kind (monitor enter, monitor wait, park) gathered by what was waited on, the site that waited (its
 * first frame outside the JDK) and the thread group that waited.
 */
public final class WaitSites {

    private record Key(String on, String site, ThreadKind group) {
    }

    private static final class Totals {
        int count;
        double totalMs;
        double maxMs;
    }

    /** One site, as analysis.json has it. */
    public record Site(@JsonProperty("class") String on, String site, String group, int count,
                       @JsonProperty("total_ms") double totalMs, @JsonProperty("max_ms") double maxMs) {

        /** "Object @ SelectedSelectionKeySetSelector.select". */
        public String shortForm() {
            return StackFacts.shortForm(on, site);
        }

        /** "event loops": the group as the lesson names it. */
        public String groupLabel() {
            return ThreadKind.valueOf(group.toUpperCase(Locale.ROOT)).label();
        }
    }

    private final Map<Key, Totals> sites = new HashMap<>();

    void add(String on, String site, ThreadKind group, double ms) {
        Totals t = sites.computeIfAbsent(new Key(on, site, group), k -> new Totals());
        t.count++;
        t.totalMs += ms;
        t.maxMs = Math.max(t.maxMs, ms);
    }

    /** The {@code n} sites with the most waiting in total. */
    List<Site> top(int n) {
        return sites.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<Key, Totals> e) -> e.getValue().totalMs).reversed()
                        .thenComparing(e -> e.getKey().site()))
                .limit(n).map(e -> site(e.getKey(), e.getValue())).toList();
    }

    /** All waits of one group on something matching {@code on}, summed into one site (named by the busiest). */
    Site sum(ThreadKind group, Predicate<String> on) {
        return sum(k -> k.group() == group && on.test(k.on()), group);
    }

    /** All waits, of every group, summed into one site (named by the busiest, and its group). */
    Site all() {
        return sum(k -> true, ThreadKind.OTHER);
    }

    private Site sum(Predicate<Key> which, ThreadKind noneGroup) {
        int count = 0;
        double total = 0;
        double max = 0;
        Key busiest = null;
        for (Map.Entry<Key, Totals> e : sites.entrySet()) {
            Key k = e.getKey();
            if (which.test(k)) {
                count += e.getValue().count;
                total += e.getValue().totalMs;
                max = Math.max(max, e.getValue().maxMs);
                if (busiest == null || e.getValue().totalMs > sites.get(busiest).totalMs) {
                    busiest = k;
                }
            }
        }
        return busiest == null ? new Site("-", "-", noneGroup.name().toLowerCase(Locale.ROOT), 0, 0, 0)
                : new Site(busiest.on(), busiest.site(), busiest.group().name().toLowerCase(Locale.ROOT), count,
                Durations.round(total), Durations.round(max));
    }

    private static Site site(Key k, Totals t) {
        return new Site(k.on(), k.site(), k.group().name().toLowerCase(Locale.ROOT), t.count,
                Durations.round(t.totalMs), Durations.round(t.maxMs));
    }
}
