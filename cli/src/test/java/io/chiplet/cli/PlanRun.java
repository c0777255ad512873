package io.chiplet.cli;

import io.chiplet.topology.Topology;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * {@code chiplet plan} run in-process, as a user runs it ({@link AdviseRun}'s counterpart), for tests that compare
 * what a plugin binds with what {@code plan} prints.
 */
public final class PlanRun
{
    private PlanRun() {}

    /**
     * Runs {@code chiplet plan ARGS} and returns what it prints (add {@code --format json} for the JSON form).
     *
     * @throws AssertionError with the error output when the command does not exit 0
     */
    public static String output(String... args)
    {
        return run(new PlanCommand(), args);
    }

    /**
     * Runs {@code chiplet plan ARGS} on {@code topology} as already read (what {@code --fs-root} or {@code --hwloc-xml}
     * would read; for tests that run plan many times on one machine).
     */
    public static String output(Topology topology, String... args)
    {
        return run(new PlanCommand(options -> topology), args);
    }

    private static String run(PlanCommand plan, String... args)
    {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(plan);
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        int status = command.execute(args);
        if (status != 0) {
            throw new AssertionError("chiplet plan " + String.join(" ", args) + " exited " + status + ": " + err);
        }
        return out.toString();
    }
}
