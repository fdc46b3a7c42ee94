package io.threadlab.experiment;

import io.threadlab.experiment.analyse.ThreadAnalysis;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WarmUpPolicy;
import io.threadlab.experiment.report.Report;
import io.threadlab.experiment.start.ComposeCli;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ./experiment}: the lab's one command. */
@Command(name = "experiment", mixinStandardHelpOptions = true, version = "quarkus-thread-lab 1.0",
        description = "Worker threads vs event loop vs virtual threads in Quarkus, measured.",
        subcommands = {ExperimentCommand.Run.class, ExperimentCommand.Analyze.class, ExperimentCommand.ReportCommand.class})
public final class ExperimentCommand {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    static int execute(String... args) {
        CommandLine cli = new CommandLine(new ExperimentCommand());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) { // bad input found after parsing: usage error
                commandLine.getErr().println("experiment: " + e.getMessage());
                commandLine.usage(commandLine.getErr());
                return 2;
            }
            commandLine.getErr().println("experiment: " + e.getMessage());
            return 1;
        });
        return cli.execute(args);
    }

    @Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
            defaultValueProvider = LabSettings.class,
            description = {"Run the experiment: each variant in turn at a CPU quota, warmed up until steady, under k6 "
                    + "load, with one JFR recording per measured window. Writes results/<UTC timestamp>/.",
                    "Defaults: 3 variants x 2 JVM starts x 2 repetitions x closed model at 100 and 500 users, plus "
                            + "recorded twins and open-model steps."})
    static final class Run implements Callable<Integer> {

        @Option(names = "--quick", description = "A smoke run of the same pipeline: one JVM start, one repetition, "
                + "short windows and warm-ups (about 6 min; the compiler will not have finished). Explicit flags win.")
        boolean quick;

        @Option(names = "--variants", split = ",", paramLabel = "NAME",
                description = "Variants to run, in order (default: imperative,reactive,virtual-thread; also "
                        + "imperative-rest, the control: worker threads on the Quarkus REST stack; and any of the "
                        + "mistakes).")
        List<String> variants;

        @Option(names = "--mistakes", description = "Run the gallery of common mistakes, each beside the correct "
                + "variant it spoils (default for it: one JVM start, 3 repetitions; about an hour).")
        boolean mistakes;

        @Option(names = "--levels", split = ",", paramLabel = "USERS",
                description = "Closed-model load levels, in concurrent users (default: 100,500).")
        List<Integer> levels = List.of(100, 500);

        @Option(names = "--window", paramLabel = "SECONDS", description = "Length of each measured window (default: 10; quick: 4).")
        Integer windowSeconds;

        @Option(names = "--settle", paramLabel = "SECONDS", description = "Least load before each window, not measured:"
                + " it goes on until the JVM's compiler is quiet (an idle gap or a recording makes it recompile)"
                + " (default: 3; quick: 1).")
        Integer settleSeconds;

        @Option(names = "--settle-max", paramLabel = "SECONDS", description = "Ceiling of that load: a window whose "
                + "compiler is still busy then is measured anyway, and its compiler share says so (default: 40; "
                + "quick: 10).")
        Integer settleMaxSeconds;

        @Option(names = "--jvm-starts", paramLabel = "N", description = "JVM starts per variant: the JVM start is a "
                + "source of variance of its own (default: 2; quick: 1).")
        Integer jvmStarts;

        @Option(names = "--repetitions", paramLabel = "N", description = "Repetitions of every plain window per JVM "
                + "start, the variant order rotated each time (default: 2; quick: 1).")
        Integer repetitions;

        @Option(names = "--warmup-cpus", paramLabel = "CPUS", description = "CPU quota while a JVM's compile queue "
                + "drains, before each level is proven at the experiment's quota; at least --cpus, at most this "
                + "machine's CPUs (default: this machine's CPUs; equal to --cpus: no boost).")
        Double warmupCpus;

        @Option(names = "--warmup-boost-max", paramLabel = "SECONDS", description = "Ceiling of the boost (default: "
                + "150; quick: 30).")
        Integer warmupBoostMax;

        @Option(names = "--warmup-level-max", paramLabel = "SECONDS", description = "Ceiling of proving one level at "
                + "the quota; a JVM whose compiler is still busy then is marked not finished (default: 90; quick: 12).")
        Integer warmupLevelMax;

        @Option(names = "--time-to-peak", description = "Also start each variant once more under continuous load at "
                + "the quota from its start, and follow it until its compiler has finished: the time a small "
                + "container takes to reach its peak (adds about 2 minutes per variant, 6 for imperative).")
        boolean timeToPeak;

        @Option(names = "--time-to-peak-max", paramLabel = "SECONDS", description = "Ceiling of each time to peak "
                + "(default: 480).")
        int timeToPeakMax = 480;

        @Option(names = "--open-rates", split = ",", paramLabel = "REQ_PER_S", description = "Open-model arrival-rate "
                + "steps, measured once per variant in repetition 1 (default: 250,500,1000,2000,4000,8000; quick: 500,2000).")
        List<Integer> openRates;

        @Option(names = "--open-step", paramLabel = "SECONDS", description = "Length of each open-model step (default: 6; quick: 3).")
        Integer openStepSeconds;

        @Option(names = "--no-open", description = "Skip the open-model steps.")
        boolean noOpen;

        @Option(names = "--no-jfr", description = "Skip the recorded twin windows (and so the thread analysis).")
        boolean noJfr;

        @Option(names = "--jfr-settings", paramLabel = "FILE", description = "JFR settings of the recorded twin "
                + "windows (default: jfr/threads.jfc, what the thread analysis needs; e.g. the JDK's 'profile' as a "
                + "file for more).")
        Path jfrSettings;

        @Option(names = "--delay-ms", paramLabel = "MS", description = "Downstream wait (default from .env: ${DEFAULT-VALUE}).")
        int delayMs = 10;

        @Option(names = "--cpus", paramLabel = "CPUS", description = "CPU quota per variant (default from .env: ${DEFAULT-VALUE}).")
        double cpus = 0.5;

        @Option(names = "--heap", paramLabel = "SIZE", description = "-Xms and -Xmx of every service (default from .env: ${DEFAULT-VALUE}).")
        String heap = "512m";

        @Option(names = "--gc", paramLabel = "GC", description = "Serial, Parallel, G1 or Z for every service "
                + "(default from .env: ${DEFAULT-VALUE}; Serial is what the JVM picks at 1 CPU anyway).")
        String gc = "Serial";

        @Option(names = "--pool-size", paramLabel = "N", description = "REST-client connection pool (default from "
                + ".env: ${DEFAULT-VALUE}; the clients' own default of 50 caps every variant).")
        int poolSize = 1000;

        @Option(names = "--worker-max", paramLabel = "N", description = "Worker pool maximum (default from .env: ${DEFAULT-VALUE}).")
        int workerMax = 200;

        @Option(names = "--connect-timeout-ms", paramLabel = "MS", description = "Client connect timeout (default from .env: ${DEFAULT-VALUE}).")
        int connectTimeoutMs = 1000;

        @Option(names = "--read-timeout-ms", paramLabel = "MS", description = "Client read timeout (default from .env: ${DEFAULT-VALUE}).")
        int readTimeoutMs = 5000;

        @Option(names = "--confine-delay-service", description = "Give the delay service the same CPU quota (default: "
                + "unconfined, its headroom measured).")
        boolean confineDelayService;

        @Option(names = "--output", paramLabel = "DIR", description = "Where run directories go (default: results).")
        Path output = Path.of("results");

        @Option(names = "--engine", paramLabel = "ENGINE", description = "local: JVMs on this machine, each in its CPU "
                + "group (default); compose: the containers of compose.yaml (needs a running Docker engine).")
        String engine = "local";

        @Override
        public Integer call() {
            if (!engine.equals("local") && !engine.equals("compose")) {
                throw new IllegalArgumentException("--engine must be local or compose, was '" + engine + "'");
            }
            ExperimentPlan plan = plan();
            if (engine.equals("compose")) {
                ComposeCli.requireEngine(); // fail fast, before anything is made
            }
            Path labHome = LabHome.find();
            Path javaHome = Path.of(System.getProperty("java.home"));
            Path settings = jfrSettings != null ? jfrSettings.toAbsolutePath() : labHome.resolve("jfr/threads.jfc");
            if (!java.nio.file.Files.isRegularFile(settings)) {
                throw new IllegalArgumentException("--jfr-settings: no such file " + settings);
            }
            Path dir = new Experiment(plan, labHome, output.isAbsolute() ? output : labHome.resolve(output), javaHome,
                    engine, settings).run();
            int analysed = 0;
            if (noJfr) {
                System.out.println("Thread analysis: none (--no-jfr: nothing was recorded)");
            } else {
                analysed = Analyze.analyse(dir);
            }
            int reported = ReportCommand.report(dir);
            return Math.max(analysed, reported);
        }

        ExperimentPlan plan() {
            if (mistakes && variants != null) {
                throw new IllegalArgumentException("--mistakes chooses its own variants; use either it or --variants");
            }
            List<Variant> chosen = mistakes ? Variant.mistakesWithTheirReferences()
                    : (variants != null ? variants : List.of("imperative", "reactive", "virtual-thread")).stream()
                    .map(Variant::fromLabel).distinct().toList();
            int machine = Runtime.getRuntime().availableProcessors();
            double boost = warmupCpus != null ? warmupCpus : machine;
            if (boost < cpus || boost > machine) {
                throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "--warmup-cpus must lie"
                        + " between the experiment's quota (--cpus %s) and this machine's %d CPUs, was %s", cpus,
                        machine, boost));
            }
            WarmUpPolicy warmUp = quick
                    ? new WarmUpPolicy(boost, 2, 2, or(warmupBoostMax, 150, 30), 4, or(warmupLevelMax, 90, 12), 0.02, 0.10)
                    : new WarmUpPolicy(boost, 2, 4, or(warmupBoostMax, 150, 30), 10, or(warmupLevelMax, 90, 12), 0.02,
                    0.10);
            List<Integer> rates = noOpen ? List.of()
                    : openRates != null ? openRates
                    : quick ? List.of(500, 2000) : List.of(250, 500, 1000, 2000, 4000, 8000);
            Knobs knobs = new Knobs(cpus, heap, gc, delayMs, poolSize, connectTimeoutMs, readTimeoutMs, workerMax,
                    confineDelayService);
            return new ExperimentPlan(chosen, levels, or(windowSeconds, 10, 4), or(settleSeconds, 3, 1),
                    or(settleMaxSeconds, 40, 10),
                    or(jvmStarts, mistakes ? 1 : 2, 1), or(repetitions, mistakes ? 3 : 2, 1), warmUp, rates, or(openStepSeconds, 6, 3), !noJfr,
                    timeToPeak, timeToPeakMax, !engine.equals("compose"), knobs);
        }

        private int or(Integer given, int normal, int quickValue) {
            return given != null ? given : quick ? quickValue : normal;
        }
    }

    @Command(name = "analyze", mixinStandardHelpOptions = true,
            description = {"Thread-behaviour analysis of JFR recordings: per thread group (worker pool, event loops, "
                    + "virtual threads, carriers, ...) socket I/O, parks, CPU samples, pinning; verdicts per variant; "
                    + "a thread-lane picture per variant. Runs by itself at the end of `run`.",
                    "Writes analysis.json, analysis.md and lanes-<variant>.svg/.png into the results directory "
                            + "(or <recording>.analysis.* beside a single recording)."})
    static final class Analyze implements Callable<Integer> {

        @Parameters(paramLabel = "RESULTS_DIR|RECORDING.jfr", description = "A results directory or one recording.")
        Path target;

        @Option(names = "--delay-port", paramLabel = "PORT", description = "The delay service's port, which marks "
                + "downstream socket I/O (default: 8090).")
        int delayPort = Experiment.DELAY_PORT;

        @Override
        public Integer call() {
            if (!java.nio.file.Files.exists(target)) {
                throw new IllegalArgumentException("no such results directory or recording: " + target);
            }
            return analyse(target, delayPort);
        }

        static int analyse(Path target) {
            return analyse(target, Experiment.DELAY_PORT);
        }

        /** Exit 0 when every recording was analysed, 1 when any could not be (the others are still written). */
        static int analyse(Path target, int delayPort) {
            ThreadAnalysis.Outcome outcome = new ThreadAnalysis(delayPort).analyse(target);
            System.out.println();
            System.out.print(ThreadAnalysis.table(outcome.analyses()));
            outcome.lanes().values().forEach(svg -> System.out.println("Thread lanes: " + svg));
            System.out.println("Analysis: " + outcome.markdown() + " and " + outcome.json());
            outcome.failures().forEach(f -> System.err.println("experiment analyze: " + f));
            return outcome.failures().isEmpty() ? 0 : 1;
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true,
            description = {"Statistics and charts of a results directory: report.md and a self-contained report.html "
                    + "(no network needed to open it), plus charts/*.svg. Needs no running service. Runs by itself at "
                    + "the end of `run`."})
    static final class ReportCommand implements Callable<Integer> {

        @Parameters(paramLabel = "RESULTS_DIR", description = "A results directory written by `run`.")
        Path dir;

        @Override
        public Integer call() {
            if (!java.nio.file.Files.isDirectory(dir)) {
                throw new IllegalArgumentException("no such results directory: " + dir);
            }
            return report(dir);
        }

        static int report(Path dir) {
            try {
                Report.Written written = Report.write(dir);
                System.out.println("Report: " + written.html() + " (and " + written.markdown().getFileName() + ")");
                return 0;
            } catch (java.io.IOException e) {
                System.err.println("experiment report: " + e.getMessage());
                return 1;
            }
        }
    }
}
