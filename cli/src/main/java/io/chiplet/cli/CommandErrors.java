package io.chiplet.cli;

import picocli.CommandLine.Model.CommandSpec;

import java.io.UncheckedIOException;

/**
 * Turns bad input into one line on stderr and exit status 2, never a stack trace: every message thrown below names
 * the file, option or value at fault.
 */
final class CommandErrors
{
    static final int USAGE = 2;

    private CommandErrors() {}

    static int run(CommandSpec spec, Runnable body)
    {
        try {
            body.run();
            return 0;
        }
        catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            spec.commandLine().getErr().println("chiplet " + spec.name() + ": " + e.getMessage());
            spec.commandLine().getErr().flush();
            return USAGE;
        }
    }
}
