package io.chiplet.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * Entry point of {@code bin/chiplet}. Each subcommand is one class in this package.
 * <p>
 * Every failure reaches the user as one line on stderr, {@code chiplet: <message>}, never a stack trace: exit
 * code 2 for a usage error (bad option or argument), 1 for a failure while running; {@code chiplet exec}, whose own
 * status is the command's, uses 125 for both, as {@code env} and {@code timeout} do.
 */
@Command(
        name = "chiplet",
        mixinStandardHelpOptions = true,
        versionProvider = ChipletCli.Version.class,
        description = "Shows the machine's chiplets and plans chiplet-aware placement for Spark and Trino.",
        subcommands = {
                CommandLine.HelpCommand.class,
                TopologyCommand.class,
                CountersCommand.class,
                ExecCommand.class,
                PlanCommand.class,
                AdviseCommand.class,
                DoctorCommand.class,
        })
public final class ChipletCli
        implements Callable<Integer>
{
    static final int USAGE_ERROR = 2;
    static final int RUNTIME_ERROR = 1;

    @Spec
    private CommandSpec spec;

    public static void main(String[] args)
    {
        System.exit(run(args));
    }

    public static int run(String... args)
    {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine()
    {
        return commandLine(CommandLine.defaultFactory());
    }

    /** The configured command line; {@code factory} creates the subcommands (tests hand in fakes). */
    static CommandLine commandLine(CommandLine.IFactory factory)
    {
        CommandLine commandLine = new CommandLine(new ChipletCli(), factory);
        commandLine.setParameterExceptionHandler(ChipletCli::usageError);
        commandLine.setExecutionExceptionHandler(ChipletCli::runtimeError);
        return commandLine;
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
        err.println("chiplet: " + oneLine(e.getMessage()) + " (see '" + command.getCommandSpec().qualifiedName() + " --help')");
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
        err.println("chiplet: " + describe(e));
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
