package io.threadlab.experiment.testing;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * How a file of an older format compares with what the runner writes after reading it: for the lab's JSON files,
 * old ones must still be read, and reading may only add what the older format did not have.
 */
public final class JsonTrees {

    private JsonTrees() {
    }

    /**
     * Where {@code written} differs from {@code old} in anything but fields the old format lacked, which must be
     * written empty (null, 0, false, [] or {}): every field of {@code old} there with the same value, in the same
     * order. Empty when they agree; else one line per difference, with its path.
     */
    public static List<String> differencesBeyondNewFields(JsonNode old, JsonNode written) {
        List<String> differences = new ArrayList<>();
        compare("$", old, written, differences);
        return differences;
    }

    private static void compare(String path, JsonNode old, JsonNode written, List<String> differences) {
        if (old.isObject() && written.isObject()) {
            List<String> kept = new ArrayList<>();
            written.fieldNames().forEachRemaining(name -> {
                if (old.has(name)) {
                    kept.add(name);
                } else if (!isEmpty(written.get(name))) {
                    differences.add(path + "." + name + ": not in the old file, written as " + written.get(name));
                }
            });
            List<String> oldNames = new ArrayList<>();
            old.fieldNames().forEachRemaining(oldNames::add);
            if (!kept.equals(oldNames)) {
                differences.add(path + ": fields " + oldNames + " written as " + kept);
            }
            kept.forEach(name -> compare(path + "." + name, old.get(name), written.get(name), differences));
        } else if (old.isArray() && written.isArray() && old.size() == written.size()) {
            for (int i = 0; i < old.size(); i++) {
                compare(path + "[" + i + "]", old.get(i), written.get(i), differences);
            }
        } else if (!old.equals(written)) {
            differences.add(path + ": " + old + " written as " + written);
        }
    }

    private static boolean isEmpty(JsonNode value) {
        return value.isNull() || value.isContainerNode() && value.isEmpty()
                || value.isNumber() && value.asDouble() == 0 || value.isBoolean() && !value.asBoolean();
    }
}
