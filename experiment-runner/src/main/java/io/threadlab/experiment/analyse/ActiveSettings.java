package io.threadlab.experiment.analyse;

import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedEvent;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings a recording was made with, from its jdk.ActiveSetting events: what was enabled and from which
 * threshold, which the events alone cannot say (no socket read of 1 ms or more is not no socket read). The events
 * name their event type by id; the recording's metadata names the ids. The last value read of a setting wins: each
 * chunk repeats the settings in force.
 */
final class ActiveSettings {

    private final Map<Long, Map<String, String>> byTypeId = new HashMap<>();
    private final Map<String, Map<String, String>> byTypeName = new HashMap<>();

    void add(RecordedEvent activeSetting) {
        byTypeId.computeIfAbsent(activeSetting.getLong("id"), id -> new HashMap<>())
                .put(activeSetting.getString("name"), activeSetting.getString("value"));
    }

    /** Once the events are read: names the event types that settings were read for. */
    void name(List<EventType> types) {
        for (EventType type : types) {
            Map<String, String> settings = byTypeId.get(type.getId());
            if (settings != null) {
                byTypeName.put(type.getName(), settings);
            }
        }
    }

    /** False for a recording made without jdk.ActiveSetting: it does not say how it was made. */
    boolean known() {
        return !byTypeId.isEmpty();
    }

    boolean enabled(String eventType) {
        return "true".equals(value(eventType, "enabled"));
    }

    /** A setting's value as JFR wrote it ("1 ms", "true", "20 ms"), or null when not recorded. */
    String value(String eventType, String setting) {
        return byTypeName.getOrDefault(eventType, Map.of()).get(setting);
    }
}
