package io.threadlab.experiment.predict;

import java.util.List;
import java.util.Locale;

/** What a forecast assumes beyond its calibration, in words: each note says where the model stood on less than data. */
final class ForecastNotes {

    /** The point as the model solved it. */
    record Point(int users, int delayMs, double cpus, double waiting, CpuCurve.Cost cost, double downstreamSeconds,
                 double rps, FanOut calls) {
    }

    /** What the notes read of the model: its curve, quota and calibration, and what it measured or assumed. */
    interface Model {
        CpuCurve curve();

        double quota();

        boolean saturated();

        boolean overheadMeasured();

        double overheadMs();

        int mostUsers();

        LoadCost load();

        double machineCores();

        List<Integer> delays();

        boolean callsElasticityMeasured();

        double callsElasticity();
    }

    private ForecastNotes() {
    }

    /**
     * @param next          the next ceiling over the binding one (null: none)
     * @param gap           how far above the binding one it lies, as a share
     * @param combinedError the two ceilings' errors together: within it, either may bind
     */
    static void say(List<String> notes, Model m, Point p, Ceiling binding, Ceiling next, double gap,
                    double combinedError) {
        boolean cpuBound = binding == Ceiling.CPU;
        CpuCurve curve = m.curve();
        List<CpuCurve.Level> levels = curve.levels();
        if (next != null && gap <= combinedError) {
            notes.addFirst(String.format(Locale.ROOT, "two ceilings within %.0f %%: %s and %s, each within the"
                    + " other's error (%.0f %% together); the lower is predicted, and either may bind", gap * 100,
                    binding.label(), next.label(), combinedError * 100));
        }
        if (p.cpus() != m.quota()) {
            notes.add(String.format(Locale.ROOT, "calibrated at %s CPU: the CPU per request is taken as the same at %s,"
                    + " an extrapolation, its error widened by %.0f %% per e-fold of quota; runs at a lower quota on"
                    + " other hours than their calibration missed by more than that, two quotas measured one after the"
                    + " other differed by no more than the machine's own swings: to be sure of another quota,"
                    + " calibrate at it (--cpus)", Forecast.number(m.quota()),
                    Forecast.number(p.cpus()),
                    CpuCurve.EXTRAPOLATION_PER_EFOLD * 100));
        }
        if (!m.saturated()) {
            notes.add("no calibration level saturated the quota: the CPU per request is the busiest levels', and the"
                    + " CPU ceiling an upper bound");
        }
        if (!m.overheadMeasured()) {
            notes.add("no calibration level was light: the time a request holds a worker or a connection is a lower"
                    + " bound");
        }
        if (cpuBound) {
            double most = levels.getLast().inJvm();
            double fewest = levels.getFirst().inJvm();
            if (p.users() > m.mostUsers() && p.waiting() > most) {
                notes.addFirst(String.format(Locale.ROOT, "%,d users is beyond the most calibrated on the CPU (%,d),"
                        + " and %,.0f requests waiting in the JVM beyond the most a level had (%,.0f): its CPU per"
                        + " request is that level's, the error widened by %.0f %% per e-fold of requests waiting"
                        + " beyond it", p.users(), m.mostUsers(), p.waiting(), most,
                        CpuCurve.EXTRAPOLATION_PER_EFOLD * 100));
            } else if (Math.log(fewest) - Math.log(p.waiting()) > 0.01) {
                notes.addFirst(String.format(Locale.ROOT, "%,.0f requests waiting in the JVM is fewer than the fewest"
                        + " a level had (%,.0f at %,d users): %s", p.waiting(), fewest, levels.getFirst().users(),
                        curve.continuesBelow() ? String.format(Locale.ROOT, "its CPU per request continues the"
                                + " curve's first segment where it falls, the error widened by %.0f %% per e-fold below"
                                + " it", CpuCurve.EXTRAPOLATION_PER_EFOLD * 100)
                                : String.format(Locale.ROOT, "the curve's first segment does not fall, so its CPU"
                                + " per request is the first level's, the error widened by %.0f %% per e-fold below"
                                + " it, up to %.0f e-fold", CpuCurve.EXTRAPOLATION_PER_EFOLD * 100,
                                CpuCurve.HELD_FLAT_REACH)));
            }
            // past the client's pool, users queue for a connection rather than for the CPU (Level#holding)
            double queued = p.users() - p.waiting() - p.rps() * p.downstreamSeconds();
            notes.add(String.format(Locale.ROOT, "%,.0f of the %,d users wait in the JVM for its CPU, %sthe rest at the"
                    + " downstream (throughput × %.1f ms), %,.0f calls out there: %.3f CPU-ms a request there,"
                    + " ±%.0f %%", p.waiting(), p.users(), queued >= 1 ? String.format(Locale.ROOT, "%,.0f for a"
                    + " connection of the client's pool (a request holds one until its answer is read), ", queued)
                    : "", p.downstreamSeconds() * 1000,
                    p.rps() * p.calls().calls() * p.downstreamSeconds() / (p.calls().parallel() ? 1 : p.calls().calls()),
                    p.cost().cpuMs(), p.cost().error() * 100));
        }
        notes.add(calls(m, p));
        if (m.load().known() && !Double.isNaN(m.machineCores())) {
            LoadCost load = m.load();
            int calls = p.calls().calls();
            notes.add(load.describe(p.rps(), calls, m.machineCores(), p.cpus(), p.users())
                    + (binding == Ceiling.LOAD ? ": the load generator binds here, not the service"
                    : load.crowded(p.rps(), calls, m.machineCores(), p.cpus())
                    ? ": more than the report's rule allows, so this point will not be judged (k6 may bind it)"
                    : load.mayCrowd(p.rps(), calls, m.machineCores(), p.cpus(), p.users())
                    ? ": its error reaches past the report's rule, so k6 may crowd this point, which would then not"
                    + " be judged" : ""));
        }
        if (p.calls().calls() > 1) {
            notes.add(String.format(Locale.ROOT, "the delay service is asked %d × the throughput: %,.0f calls/s",
                    p.calls().calls(), p.calls().calls() * p.rps()));
        }
    }

    /** How the calls in flight were taken: measured at several delays, or held to the one calibrated. */
    private static String calls(Model m, Point p) {
        String delays = delays(m.delays());
        if (m.callsElasticityMeasured() && m.curve().betaNotEarned()) {
            return String.format(Locale.ROOT, "calibrated at %s: more calls out at the downstream did not earn a cost"
                    + " (the best fit, %+.0f %% per doubling, predicted the levels left out no better than none by"
                    + " more than its standard error): a request is taken to cost what the calibration's did at as many"
                    + " waiting (β 0, ±%.2f when a level was left out)", delays,
                    (Math.pow(2, m.curve().fittedBeta()) - 1) * 100, m.curve().betaSpread());
        }
        if (m.callsElasticityMeasured()) {
            return String.format(Locale.ROOT, "calibrated at %s: a request's CPU moves %+.0f %% per doubling of the"
                    + " calls out at the downstream (β %.2f, ±%.2f when a level was left out)", delays,
                    (Math.pow(2, m.callsElasticity()) - 1) * 100, m.callsElasticity(), m.curve().betaSpread());
        }
        boolean other = !m.delays().contains(p.delayMs());
        List<Integer> busy = m.curve().levels().stream().map(CpuCurve.Level::delayMs).distinct().sorted().toList();
        // at a second delay whose levels all left the CPU idle (a pool bound them) the cost was not read there either
        String why = m.delays().size() > 1 && busy.size() == 1
                ? "only the levels at " + delays(busy) + " kept the CPU busy, and the cost is read from those"
                : "calibrate at a second delay: --calibration-delay-ms";
        return String.format(Locale.ROOT, "calibrated at %s only: what more calls in flight cost is not measured"
                + " (%s); %s", delays, why,
                other ? String.format(Locale.ROOT, "at %d ms a request is taken to cost what the calibration's did at"
                        + " as many waiting, and to hold its worker or connection for the delay plus the %.1f ms"
                        + " measured above it, the error widened by %.0f %% per e-fold of calls in flight beyond those"
                        + " of the levels its cost is read from", p.delayMs(), m.overheadMs(), CpuCurve.EXTRAPOLATION_PER_EFOLD * 100)
                        : "the point is at its delay");
    }

    /** "10 ms", "10 and 50 ms". */
    static String delays(List<Integer> delays) {
        List<String> ms = delays.stream().map(String::valueOf).toList();
        return (ms.size() == 1 ? ms.getFirst() : String.join(", ", ms.subList(0, ms.size() - 1)) + " and "
                + ms.getLast()) + " ms";
    }
}
