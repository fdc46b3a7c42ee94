package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The sleeps explain a JVM's falling cost only where its windows say so. The shapes are the virtual threads' 10 ms
 * windows of the map 2026-11-28T00-49-34Z: 30 to 700 users, 4.46 to 0.56 sleeps a request, 0.188 to 0.086 CPU-ms.
 */
class SleepCostTest {

    private static WindowResult window(int users, double rps, double cpuMs, double sleeps) {
        return Windows.closed("virtual-thread", users, rps).cpuMs(cpuMs).sleeps(sleeps).build();
    }

    private static List<WindowResult> map() {
        return List.of(window(30, 2566, 0.188, 4.46), window(100, 4057, 0.123, 1.83), window(200, 4519, 0.110, 1.36),
                window(500, 5196, 0.096, 0.88), window(700, 5820, 0.086, 0.56));
    }

    @Test
    void aCostThatFollowsTheSleepsIsExplainedByThem() {
        SleepCost fit = SleepCost.of(map()).getFirst();
        assertThat(fit.jvm()).isEqualTo("virtual-thread-jvm1");
        assertThat(fit.windows()).isEqualTo(5);
        // the least-squares line through the five: 25.9 CPU-µs a sleep, 0.074 CPU-ms of a request's own work
        assertThat(fit.usPerSleep()).isCloseTo(25.85, within(0.01));
        assertThat(fit.ownMs()).isCloseTo(0.0736, within(0.0001));
        assertThat(fit.r()).isGreaterThan(0.99);
        assertThat(fit.explains()).isTrue();
        assertThat(fit.text()).isEqualTo("virtual-thread-jvm1: its threads sleep less where more requests wait: 4.46"
                + " sleeps a request at 0.188 CPU-ms with 3 waiting in the JVM, 0.56 at 0.086 with 639 (5 windows at"
                + " 80 % of the quota or more, r = 1.00). Each sleep cost 26 CPU-µs, a request's own work 0.074"
                + " CPU-ms.");
    }

    @Test
    void sleepsThatDoNotFollowTheCostExplainNothing() {
        // the same costs, the sleeps turned round: the dearest requests slept least
        List<WindowResult> reversed = List.of(window(30, 2566, 0.188, 0.56), window(100, 4057, 0.123, 0.88),
                window(200, 4519, 0.110, 1.36), window(500, 5196, 0.096, 1.83), window(700, 5820, 0.086, 4.46));
        SleepCost fit = SleepCost.of(reversed).getFirst();
        assertThat(fit.explains()).isFalse();
        assertThat(fit.text()).startsWith("virtual-thread-jvm1: not explained by its sleeps: its cost did not rise"
                + " with its sleeps: ").doesNotContain("sleep less");
        // sleeps scattered about the costs
        List<WindowResult> loose = List.of(window(30, 2566, 0.188, 2.0), window(100, 4057, 0.123, 4.4),
                window(200, 4519, 0.110, 0.9), window(500, 5196, 0.096, 3.9), window(700, 5820, 0.086, 1.1));
        assertThat(SleepCost.of(loose).getFirst().text()).contains("not explained by its sleeps: its cost followed"
                + " its sleeps loosely (r below 0.8)");
        // a cost that falls with sleeps that hardly moved
        List<WindowResult> flat = List.of(window(30, 2566, 0.188, 1.30), window(100, 4057, 0.123, 1.10),
                window(500, 5196, 0.096, 0.98));
        assertThat(SleepCost.of(flat).getFirst().text()).contains("its sleeps hardly varied (the most less than"
                + " 1.5× the fewest)");
        // the same sleeps at every window: no line to draw, and said so, not as a cost that did not rise
        List<WindowResult> same = List.of(window(30, 2566, 0.188, 1.0), window(100, 4057, 0.123, 1.0),
                window(500, 5196, 0.096, 1.0));
        assertThat(SleepCost.of(same).getFirst().explains()).isFalse();
        assertThat(SleepCost.of(same).getFirst().text()).contains("not explained by its sleeps: its sleeps hardly"
                + " varied").contains("r = –)");
    }

    @Test
    void onlyBusyUnrecordedWindowsWithCountedSleepsAreTaken() {
        List<WindowResult> rows = new ArrayList<>(map().subList(0, 2));
        // 10 users used 0.22 of the 0.5 CPU: partly the JVM's idle work
        rows.add(Windows.closed("virtual-thread", 10, 886).cpuMs(0.247).sleeps(6.57).build());
        // a recorded twin pays for its recording
        rows.add(Windows.closed("virtual-thread", 500, 5000).cpuMs(0.110).sleeps(0.9).recorded().build());
        // a window whose sleeps were not counted (a thread of the worker pool ended in it)
        rows.add(Windows.closed("virtual-thread", 500, 5196).cpuMs(0.096).build());
        assertThat(SleepCost.of(rows)).as("two windows left: too few for a line").isEmpty();
        rows.add(map().get(4));
        assertThat(SleepCost.of(rows)).singleElement().satisfies(f -> assertThat(f.windows()).isEqualTo(3));
    }
}
