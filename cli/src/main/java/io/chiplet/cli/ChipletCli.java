package io.chiplet.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Entry point of {@code bin/chiplet}. Each subcommand is one class in this package.
 * <p>
 * Every failure reaches the user as one line on stderr, {@code chiplet <command>: <message>}, never a stack trace: exit
 * code 2 for a usage error (bad option or argument), 1 for a failure while running; {@code chiplet exec}, whose own
 * status is the command's, uses 125 for both, as {@code env} and {@code timeout} do.
 */
@Command(
        name = "chiplet",
        mixinStandardHelpOptions = true,
        versionProvider = ChipletCli.Version.class,
        description = "Shows the machine's chiplets and plans chiplet-aware placement for Spark and Trino.",
        footer = {"",
                "bin/chiplet also runs, on the Spark and JMH builds (see bin/chiplet demo --help, bin/chiplet bench --help):",
                "  demo    TPC-H in embedded Spark with and without the plugin, and what the plugin does on the bundled machines.",
                "  bench   The JMH suite, or TPC-H on Spark or Trino with the plugin on and off; rewrites docs/performance.md."})
public final class ChipletCli
        implements Callable<Integer>
{
    static final int USAGE_ERROR = 2;
    static final int RUNTIME_ERROR = 1;

    /**
     * The subcommands by name, in the order the usage lists them. Not in the {@code @Command} annotation: picocli
     * builds the model of every annotated subcommand by reflection (a tenth of a second at start-up), so a run builds
     * only the one it was asked for, and all of them where it shows the usage or cannot tell.
     */
    private static final Map<String, Class<?>> SUBCOMMANDS = subcommands(
            CommandLine.HelpCommand.class,
            TopologyCommand.class,
            CountersCommand.class,
            ExecCommand.class,
            PlanCommand.class,
            AdviseCommand.class,
            DoctorCommand.class,
            ReportCommand.class);

    @Spec
    private CommandSpec spec;

    public static void main(String[] args)
    {
        System.exit(run(args));
    }

    public static int run(String... args)
    {
        return commandLine(CommandLine.defaultFactory(), args.length == 0 ? Optional.empty() : Optional.of(args[0])).execute(args);
    }

    /** The command line with every subcommand. */
    public static CommandLine commandLine()
    {
        return commandLine(CommandLine.defaultFactory());
    }

    /** The configured command line with every subcommand; {@code factory} creates them (tests hand in fakes). */
    static CommandLine commandLine(CommandLine.IFactory factory)
    {
        return commandLine(factory, Optional.empty());
    }

    /**
     * The configured command line for arguments that start with {@code first}: only that subcommand where it names
     * one other than {@code help}, every subcommand otherwise (usage, {@code help}, a misspelt name picocli suggests
     * the right one for).
     */
    static CommandLine commandLine(CommandLine.IFactory factory, Optional<String> first)
    {
        CommandLine commandLine = new CommandLine(new ChipletCli(), factory);
        Optional<Class<?>> only = first.filter(name -> !name.equals("help")).map(SUBCOMMANDS::get);
        for (Map.Entry<String, Class<?>> subcommand : SUBCOMMANDS.entrySet()) {
            if (only.isEmpty() || only.get() == subcommand.getValue()) {
                commandLine.addSubcommand(subcommand.getKey(), subcommand.getValue());
            }
        }
        // Every subcommand's --help lists --version: it prints the one version, not nothing.
        commandLine.getSubcommands().values().forEach(sub -> sub.getCommandSpec().versionProvider(new Version()));
        commandLine.setParameterExceptionHandler(ChipletCli::usageError);
        commandLine.setExecutionExceptionHandler(ChipletCli::runtimeError);
        return commandLine;
    }

    private static Map<String, Class<?>> subcommands(Class<?>... types)
    {
        Map<String, Class<?>> byName = new LinkedHashMap<>();
        for (Class<?> type : types) {
            byName.put(type.getAnnotation(Command.class).name(), type);
        }
        return Collections.unmodifiableMap(byName);
    }

    /** {@code chiplet} alone: show what there is to run. */
    @Override
    public Integer call()
    {
        spec.commandLine().usage(spec.commandLine().getErr());
        return USAGE_ERROR;
    }

    private static int usageError(ParameterException e, String[] args)
    {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        // picocli's "Unmatched argument at index 5: 'x'" counts words the user never numbered.
        // An unknown option keeps picocli's "Unknown option: '--x'" (with its suggestion).
        String message = e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()
                && unmatched.getUnmatched().stream().noneMatch(argument -> argument.startsWith("-"))
                ? "unexpected argument" + (unmatched.getUnmatched().size() == 1 ? " '" : "s '") + String.join("', '", unmatched.getUnmatched()) + "'"
                : oneLine(e.getMessage());
        err.println(command.getCommandSpec().qualifiedName() + ": " + message + " (see '" + command.getCommandSpec().qualifiedName() + " --help')");
        err.flush();
        return isExec(command) ? ExecCommand.EXEC_FAILED : USAGE_ERROR;
    }

    private static boolean isExec(CommandLine command)
    {
        return command.getCommandSpec().userObject() instanceof ExecCommand;
    }

    private static int runtimeError(Exception e, CommandLine command, ParseResult parseResult)
    {
        PrintWriter err = command.getErr();
        err.println(command.getCommandSpec().qualifiedName() + ": " + describe(e));
        err.flush();
        return isExec(command) ? ExecCommand.EXEC_FAILED : RUNTIME_ERROR;
    }

    /**
     * Our exceptions carry messages written for the user (file and expectation); anything else is a bug, named by
     * its type so it can be reported.
     */
    static String describe(Throwable e)
    {
        String message = e.getMessage() == null || e.getMessage().isBlank() ? null : oneLine(e.getMessage());
        boolean bug = e instanceof NullPointerException
                || e instanceof ClassCastException
                || e instanceof IndexOutOfBoundsException
                || e instanceof UnsupportedOperationException;
        if (message != null && !bug) {
            return message;
        }
        return "internal error: " + e.getClass().getName() + (message == null ? "" : ": " + message);
    }

    private static String oneLine(String message)
    {
        return message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }

    static final class Version
            implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            String version = ChipletCli.class.getPackage().getImplementationVersion();
            return new String[] {"chiplet " + (version == null ? "dev" : version)};
        }
    }
}
