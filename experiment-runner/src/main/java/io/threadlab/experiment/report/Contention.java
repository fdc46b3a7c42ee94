package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Point;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.threadlab.experiment.collect.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Where threads wait for each other: the top monitor-contention sites of each recording at the top point. */
final class Contention {

    private static final int SITES = 3;

    /**
     * A site as analysis.json has it. The analysis' own type (WaitSites.Site) is not visible outside its package, so
     * the report takes the same fields into this one.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Site(@JsonProperty("class") String monitor, String site, long count,
                @JsonProperty("total_ms") double totalMs, @JsonProperty("max_ms") double maxMs) {
    }

    record Row(String variant, String colour, String monitor, String site, String waits, String totalMs,
               String longestMs) {
    }

    private Contention() {
    }

    static List<Row> rows(Run run, List<Recorded> recorded) {
        Optional<Point> top = run.top();
        Map<String, List<?>> sites = new LinkedHashMap<>();
        for (Recorded r : recorded) {
            if (r.point().isPresent() && r.point().equals(top)) {
                sites.putIfAbsent(r.label(), r.recording().monitorEnterSites());
            }
        }
        List<Row> rows = new ArrayList<>();
        sites.forEach((variant, list) -> list.stream().limit(SITES).map(s -> Json.MAPPER.convertValue(s, Site.class))
                .forEach(s -> rows.add(new Row(variant, ChartStyle.hex(variant), s.monitor(), s.site(),
                        String.valueOf(s.count()), Numbers.number(s.totalMs(), 0), Numbers.number(s.maxMs(), 0)))));
        return rows;
    }
}
