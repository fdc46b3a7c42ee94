package io.threadlab.experiment;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./experiment}: the lab's one command. */
@Command(name = "experiment", mixinStandardHelpOptions = true, version = "quarkus-thread-lab 1.0",
        description = "Worker threads vs event loop vs virtual threads in Quarkus, measured.",
        subcommands = {RunCommand.class, MapCommand.class, AnalyzeCommand.class, ReportCommand.class,
                PredictCommand.class, PublishCommand.class, FindingsCommand.class})
public final class ExperimentCommand {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    static int execute(String... args) {
        CommandLine cli = new CommandLine(new ExperimentCommand());
        // A word that names no command is an error, even beside --help (picocli would print the main usage, exit 0).
        if (args.length == 0 || !args[0].startsWith("-") && !cli.getSubcommands().containsKey(args[0])) {
            cli.getErr().println("experiment: " + (args.length == 0 ? "no command given"
                    : "no such command: " + args[0]) + "; the commands are " + String.join(", ",
                    cli.getSubcommands().keySet()));
            cli.usage(cli.getErr());
            return 2;
        }
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
}
