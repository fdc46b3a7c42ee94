package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.plan.Variant;

import java.util.List;
import java.util.Map;

/**
 * What a published run measured, read from its own plan (never from its name): the findings page gives each kind its
 * section. A run of the default plan is a default run whatever flags said so; a map over several delays and users is
 * a regime map.
 */
enum Kind {
    DEFAULT_RUN("default run"),
    REGIME_MAP("regime map"),
    POINTS("map of a few points"),
    DATABASE("database"),
    FAN_OUT("fan-out"),
    MISTAKES("mistakes gallery"),
    BURST("burst"),
    OTHER_RUN("run");

    private final String label;

    Kind(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    static Kind of(RunManifest manifest) {
        PlanFacts plan = manifest.plan();
        if (plan == null) {
            return OTHER_RUN;
        }
        if (!plan.variantRoles().mistakes().isEmpty()) {
            return MISTAKES;
        }
        if (plan.shapes().burst() != null) {
            return BURST;
        }
        if (fansOut(plan.fanOut())) {
            return FAN_OUT;
        }
        if (plan.downstreams().contains("db")) {
            return DATABASE;
        }
        if ("map".equalsIgnoreCase(plan.mode())) {
            return plan.delaysMs().size() > 1 && plan.closedModelVus().size() > 2 ? REGIME_MAP : POINTS;
        }
        return isDefault(plan, manifest) ? DEFAULT_RUN : OTHER_RUN;
    }

    private static boolean fansOut(Map<String, Object> fanOut) {
        return fanOut != null && fanOut.get("calls") instanceof List<?> calls
                && calls.stream().anyMatch(n -> n instanceof Number number && number.intValue() > 1);
    }

    /**
     * The three models at the default levels and the default delay of .env, on the delay service, sampled as the
     * default plan samples (its window, at least its JVM starts): a --quick run has the same points and shorter
     * windows in one JVM start, a smoke run whose numbers are not findings.
     */
    private static boolean isDefault(PlanFacts plan, RunManifest manifest) {
        List<String> models = Variant.defaults().stream().map(Variant::label).toList();
        String delay = manifest.settingsFile().get("LAB_DELAY_MS");
        String cpus = manifest.settingsFile().get("LAB_CPUS");
        boolean quota = cpus == null || manifest.confinement() == null
                || Double.parseDouble(cpus.trim()) == manifest.confinement().variantCpuQuota();
        return quota && plan.variants().equals(models) && plan.closedModelVus().equals(Defaults.integers(Defaults.LEVELS))
                && plan.delaysMs().equals(List.of(delay == null ? 10 : Integer.parseInt(delay.trim())))
                && plan.downstreams().equals(List.of("http"))
                && plan.sampling() != null && plan.sampling().windowSeconds() == Defaults.WINDOW
                && plan.sampling().jvmStarts() >= Defaults.JVM_STARTS;
    }
}
