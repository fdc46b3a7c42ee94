package io.threadlab.experiment.report;

import io.threadlab.experiment.analyse.RecordingAnalysis;
import io.threadlab.experiment.plan.Point;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.threadlab.experiment.collect.Json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where threads wait for each other: the top monitor-contention sites of each recording at the top point, and a note
 * that explains only the sites those recordings show.
 */
final class Contention {

    private static final int SITES = 3;
    /** The period of the CPU quota: the lab's cgroups set it (CgroupV1, CgroupV2, SystemdScope). */
    private static final int QUOTA_PERIOD_MS = 100;
    private static final String COPIES = "copies its provider configuration on every call and takes locks shared by"
            + " all worker threads while copying";
    /**
     * The sites the lab has an explanation of (docs/classic-rest-client.md), by the class and method of their frame,
     * each with what the classic REST client does there.
     */
    private static final Map<String, String> CLASSIC_CLIENT = classicClient();

    /**
     * A site as analysis.json has it. The analysis' own type (WaitSites.Site) is not visible outside its package, so
     * the report takes the same fields into this one.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Site(@JsonProperty("class") String monitor, String site, long count,
                @JsonProperty("total_ms") double totalMs, @JsonProperty("max_ms") double maxMs) {

        /** "SnapshotSet.lockSnapshots": the frame's class and method, without package or line. */
        String frame() {
            return frameOf(site);
        }
    }

    /**
     * Whether the lab explains a site ("org.jboss.resteasy...SnapshotSet.lockSnapshots:86"): one of the classic REST
     * client's.
     */
    static boolean explains(String site) {
        return CLASSIC_CLIENT.containsKey(frameOf(site));
    }

    private static String frameOf(String site) {
        String method = site.contains(":") ? site.substring(0, site.lastIndexOf(':')) : site;
        int dot = method.lastIndexOf('.');
        int classDot = dot > 0 ? method.lastIndexOf('.', dot - 1) : -1;
        return method.substring(classDot + 1);
    }

    record Row(String variant, String colour, String monitor, String site, String waits, String totalMs,
               String longestMs) {
    }

    /** A site shown in the table, with the recording it came from. */
    private record Shown(String variant, Site site, Recorded recorded) {
    }

    private Contention() {
    }

    static List<Row> rows(Run run, List<Recorded> recorded) {
        return shown(run, recorded).stream().map(s -> new Row(s.variant(), ChartStyle.hex(s.variant()),
                s.site().monitor(), s.site().site(), String.valueOf(s.site().count()),
                Numbers.number(s.site().totalMs(), 0), Numbers.number(s.site().maxMs(), 0))).toList();
    }

    /**
     * What the table shows and, for the sites in it the lab can explain, why threads wait there; for none, the sites
     * that waited longest. The quota is named as the cause only where the recordings that waited there were
     * throttled.
     */
    static String note(Run run, List<Recorded> recorded) {
        List<Shown> shown = shown(run, recorded);
        StringBuilder note = new StringBuilder("Monitor contention in the recorded windows at the highest level, from"
                + " jdk.JavaMonitorEnter (waits of 1 ms or more).");
        if (shown.isEmpty()) {
            return note.toString();
        }
        // in the order the client's call meets them, as docs/classic-rest-client.md tells it
        List<String> known = List.copyOf(CLASSIC_CLIENT.keySet());
        List<Shown> explained = shown.stream().filter(s -> CLASSIC_CLIENT.containsKey(s.site().frame()))
                .sorted(Comparator.comparingInt(s -> known.indexOf(s.site().frame()))).toList();
        if (explained.isEmpty()) {
            List<String> longest = shown.stream().sorted(Comparator.comparingDouble((Shown s) -> s.site().totalMs())
                    .reversed()).limit(2).map(s -> String.format(Locale.ROOT, "%s (%s, %s ms in all)",
                    s.site().frame(), s.variant(), Numbers.number(s.site().totalMs(), 0))).toList();
            return note.append(" None of these sites is one the lab explains (the classic REST client's locks,"
                    + " docs/classic-rest-client.md); the longest waits in all were at ")
                    .append(String.join(" and ", longest)).append('.').toString();
        }
        Map<String, Set<String>> framesByDoing = new LinkedHashMap<>();
        for (Shown s : explained) {
            framesByDoing.computeIfAbsent(CLASSIC_CLIENT.get(s.site().frame()), d -> new LinkedHashSet<>())
                    .add(s.site().frame());
        }
        List<String> doings = new ArrayList<>();
        framesByDoing.forEach((doing, frames) -> doings.add(doing + " (" + String.join(", ", frames) + ")"));
        note.append(" At the sites recorded here, the classic REST client ").append(join(doings)).append('.');
        List<RecordingAnalysis.Throttling> throttling = explained.stream().map(s -> s.recorded().recording())
                .distinct().map(r -> r.pauses().cpuThrottling()).filter(t -> t != null && t.periods() > 0).toList();
        if (!throttling.isEmpty()) {
            long periods = throttling.stream().mapToLong(RecordingAnalysis.Throttling::periods).sum();
            long throttled = throttling.stream().mapToLong(RecordingAnalysis.Throttling::throttledPeriods).sum();
            double longest = explained.stream().mapToDouble(s -> s.site().maxMs()).max().orElse(0);
            note.append(throttled == 0 ? String.format(Locale.ROOT, " The recordings with these waits were never"
                    + " throttled (0 of %,d quota periods).", periods)
                    : String.format(Locale.ROOT, " The recordings with these waits were throttled in %,d of %,d"
                            + " periods of the %s-CPU quota: a holder throttled inside one of these sections keeps"
                            + " every waiter waiting until the next %d ms period; the longest wait at them was %s ms.",
                    throttled, periods, Numbers.quota(run.confinement().variantCpuQuota()), QUOTA_PERIOD_MS,
                    Numbers.number(longest, 0)));
        }
        return note.toString();
    }

    /** Per variant (the first recording of each label at the top point), its top sites. */
    private static List<Shown> shown(Run run, List<Recorded> recorded) {
        Optional<Point> top = run.top();
        Map<String, Recorded> first = new LinkedHashMap<>();
        for (Recorded r : recorded) {
            if (r.point().isPresent() && r.point().equals(top)) {
                first.putIfAbsent(r.label(), r);
            }
        }
        List<Shown> shown = new ArrayList<>();
        first.forEach((variant, r) -> {
            List<?> sites = r.recording().waits().monitorEnterSites(); // the analysis' own type is not visible here
            sites.stream().limit(SITES).map(s -> Json.MAPPER.convertValue(s, Site.class))
                    .forEach(s -> shown.add(new Shown(variant, s, r)));
        });
        return shown;
    }

    private static String join(List<String> parts) {
        return parts.size() == 1 ? parts.getFirst()
                : String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.getLast();
    }

    private static Map<String, String> classicClient() {
        Map<String, String> sites = new LinkedHashMap<>();
        sites.put("SnapshotSet.lockSnapshots", COPIES);
        sites.put("SnapshotMap.lockSnapshots", COPIES);
        sites.put("ResteasyProviderFactoryImpl.initializeCommon", COPIES);
        sites.put("Response.<init>", "registers each response with the JVM-wide finalizer lock");
        sites.put("AbstractConnPool.getPoolEntryBlocking", "leases connections under Apache HttpClient's single"
                + " pool lock");
        sites.put("AbstractConnPool.release", "releases connections under Apache HttpClient's single pool lock");
        return Collections.unmodifiableMap(sites);
    }
}
