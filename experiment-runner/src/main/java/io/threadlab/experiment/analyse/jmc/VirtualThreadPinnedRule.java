package io.threadlab.experiment.analyse.jmc;

import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.common.util.TypedPreference;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.jdk.JdkAttributes;
import org.openjdk.jmc.flightrecorder.rules.IResult;
import org.openjdk.jmc.flightrecorder.rules.IResultValueProvider;
import org.openjdk.jmc.flightrecorder.rules.IRule;
import org.openjdk.jmc.flightrecorder.rules.ResultBuilder;
import org.openjdk.jmc.flightrecorder.rules.Severity;
import org.openjdk.jmc.flightrecorder.rules.TypedResult;
import org.openjdk.jmc.flightrecorder.rules.util.JfrRuleTopics;
import org.openjdk.jmc.flightrecorder.rules.util.RulesToolkit;
import org.openjdk.jmc.flightrecorder.rules.util.RulesToolkit.EventAvailability;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;

/**
 * The rule JDK Mission Control lacks: virtual threads pinned to their carrier ({@code jdk.VirtualThreadPinned}), which
 * none of JMC 9.1's rules reads. Written as JMC's own rules are (ProcessStartedRule's shape), registered beside them
 * (META-INF/services), so that JMC's page and the lab's table show it with the others. Its score follows the pinned
 * events' rate: 25 at one a second, 75 at ten. It needs no event to be present: a recording that enabled the event and
 * saw none is OK, one that did not record it is not applicable. (JMC's own availability check would call an enabled
 * type without events "not enabled" in a recording of several chunks.) Threads are counted by their Java id: JMC 9.1
 * keys threads on the OS thread, which every virtual thread shares (0).
 */
public final class VirtualThreadPinnedRule implements IRule {

    public static final String ID = "VirtualThreadPinned";
    static final String PINNED = "jdk.VirtualThreadPinned";

    static final TypedPreference<IQuantity> INFO_RATE = new TypedPreference<>("lab.vthread.pinned.rate.info",
            "Pinned events per second (information)", "The rate of pinned events that scores 25.", UnitLookup.NUMBER,
            UnitLookup.NUMBER_UNITY.quantity(1));
    static final TypedPreference<IQuantity> WARNING_RATE = new TypedPreference<>("lab.vthread.pinned.rate.warning",
            "Pinned events per second (warning)", "The rate of pinned events that scores 75.", UnitLookup.NUMBER,
            UnitLookup.NUMBER_UNITY.quantity(10));

    static final TypedResult<IQuantity> COUNT = new TypedResult<>("pinnedCount", "Pinned Events",
            "The number of jdk.VirtualThreadPinned events.", UnitLookup.NUMBER, IQuantity.class);
    static final TypedResult<IQuantity> THREADS = new TypedResult<>("pinnedThreads", "Pinned Threads",
            "The virtual threads that were pinned.", UnitLookup.NUMBER, IQuantity.class);
    static final TypedResult<IQuantity> TOTAL = new TypedResult<>("pinnedTotal", "Total Pinned Time",
            "The pinned durations together.", UnitLookup.TIMESPAN, IQuantity.class);
    static final TypedResult<IQuantity> LONGEST = new TypedResult<>("pinnedMax", "Longest Pin",
            "The longest pinned duration.", UnitLookup.TIMESPAN, IQuantity.class);

    @Override
    public RunnableFuture<IResult> createEvaluation(IItemCollection items, IPreferenceValueProvider preferences,
                                                    IResultValueProvider dependencies) {
        return new FutureTask<>(() -> evaluate(items, preferences));
    }

    private IResult evaluate(IItemCollection items, IPreferenceValueProvider preferences) {
        IItemCollection pinned = items.apply(ItemFilters.type(PINNED));
        if (!pinned.hasItems()) {
            boolean recorded = items.apply(ItemFilters.and(RulesToolkit.getSettingsFilter("enabled", PINNED),
                    ItemFilters.equals(JdkAttributes.REC_SETTING_VALUE, "true"))).hasItems();
            if (!recorded) {
                return RulesToolkit.getNotApplicableResult(this, preferences, PINNED + " was not recorded.");
            }
            return ResultBuilder.createFor(this, preferences).setSeverity(Severity.OK)
                    .setSummary("No virtual thread was pinned to its carrier.")
                    .addResult(TypedResult.SCORE, UnitLookup.NUMBER_UNITY.quantity(0)).build();
        }
        IQuantity count = pinned.getAggregate(Aggregators.count());
        IQuantity threads = pinned.getAggregate(Aggregators.countDistinct("threads", null,
                JdkAttributes.EVENT_THREAD_ID));
        IQuantity total = pinned.getAggregate(Aggregators.sum(PINNED, JfrAttributes.DURATION));
        IQuantity longest = pinned.getAggregate(Aggregators.max(PINNED, JfrAttributes.DURATION));
        double seconds = RulesToolkit.getLatestEndTime(items).subtract(RulesToolkit.getEarliestStartTime(items))
                .doubleValueIn(UnitLookup.SECOND);
        double rate = count.doubleValue() / Math.max(seconds, 1e-3);
        double score = RulesToolkit.mapExp100(rate, preferences.getPreferenceValue(INFO_RATE).doubleValue(),
                preferences.getPreferenceValue(WARNING_RATE).doubleValue());
        return ResultBuilder.createFor(this, preferences).setSeverity(Severity.get(score))
                .setSummary("{pinnedCount} pinned events on {pinnedThreads} virtual threads, {pinnedTotal} in all,"
                        + " the longest {pinnedMax}.")
                .setExplanation("A pinned virtual thread holds its carrier while it blocks: in a class initialiser,"
                        + " under a native frame, or (before JDK 24) inside synchronized. Every other virtual thread"
                        + " waits for a carrier meanwhile; with one carrier at a 1-CPU quota, for the whole block.")
                .setSolution("Read the events' stack traces for the frame that pins, and move the blocking call out"
                        + " of it, or run that code on a platform thread.")
                .addResult(TypedResult.SCORE, UnitLookup.NUMBER_UNITY.quantity(score)).addResult(COUNT, count)
                .addResult(THREADS, threads).addResult(TOTAL, total).addResult(LONGEST, longest).build();
    }

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getName() {
        return "Virtual Thread Pinning";
    }

    @Override
    public String getTopic() {
        return JfrRuleTopics.JAVA_APPLICATION;
    }

    @Override
    public Map<String, EventAvailability> getRequiredEvents() {
        return Map.of();
    }

    @Override
    public Collection<TypedPreference<?>> getConfigurationAttributes() {
        return List.of(INFO_RATE, WARNING_RATE);
    }

    @Override
    public Collection<TypedResult<?>> getResults() {
        return List.of(TypedResult.SCORE, COUNT, THREADS, TOTAL, LONGEST);
    }
}
