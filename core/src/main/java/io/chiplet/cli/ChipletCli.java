package io.chiplet.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code bin/chiplet}. Each subcommand is one class in this package. */
@Command(
        name = "chiplet",
        mixinStandardHelpOptions = true,
        versionProvider = ChipletCli.Version.class,
        description = "Shows the machine's chiplets and plans chiplet-aware placement for Spark and Trino.",
        subcommands = {
                CommandLine.HelpCommand.class,
                PlanCommand.class,
                AdviseCommand.class,
        })
public final class ChipletCli
{
    public static void main(String[] args)
    {
        System.exit(run(args));
    }

    public static int run(String... args)
    {
        return new CommandLine(new ChipletCli()).execute(args);
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
