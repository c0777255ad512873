package io.chiplet.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * The training run the build makes the CLI's AOT cache from ({@code core/pom.xml}, JDK 25's {@code -XX:AOTCacheOutput},
 * JEP 483/514): the commands typed by hand or put in front of every executor, each run once in this JVM with their
 * output discarded, so that the classes they load, link and initialise start from the cache in every later
 * {@code bin/chiplet} run. {@code exec} runs up to its {@code execvp}, which fails on a command that does not exist, so
 * the JVM ends normally and the cache is written. Not a user command: {@code bin/chiplet} never runs it.
 */
public final class StartupTraining
{
    /** Command lines, as typed after {@code chiplet}. */
    static final List<List<String>> COMMANDS = List.of(
            List.of("topology"),
            List.of("topology", "--format", "json"),
            List.of("plan", "--policy", "wicp-local", "--workers", "2"),
            List.of("advise", "--engine", "spark"),
            List.of("advise", "--engine", "trino"),
            List.of("exec", "--cpus", "0", "--membind", "--", "/nonexistent/chiplet-startup-training"),
            List.of("--help"));

    private StartupTraining() {}

    public static void main(String[] args)
    {
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(discard);
        System.setErr(discard);
        try {
            for (List<String> command : COMMANDS) {
                // The exit codes do not matter: a failing command (no NUMA node to bind here) trains its path as well.
                ChipletCli.run(command.toArray(String[]::new));
            }
        }
        finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
