package io.chiplet.jmh.trino;

import io.chiplet.jmh.trino.BenchServerProtocol.Failure;
import io.chiplet.jmh.trino.BenchServerProtocol.Ready;
import io.chiplet.jmh.trino.BenchServerProtocol.Reply;
import io.chiplet.jmh.trino.BenchServerProtocol.Result;
import io.chiplet.jmh.trino.BenchServerProtocol.Status;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * The benchmark's handle on one {@link TrinoBenchServer}: a JVM started like this one (same java, JVM options and
 * class path), commanded over {@link BenchServerProtocol}. The server's log goes to this JVM's standard error.
 */
final class BenchServerProcess
        implements AutoCloseable
{
    private final String name;
    private final Process process;
    private final PrintWriter commands;
    private final BufferedReader replies;
    private final Ready ready;

    private BenchServerProcess(String name, Process process)
            throws IOException
    {
        this.name = requireNonNull(name, "name is null");
        this.process = requireNonNull(process, "process is null");
        this.commands = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.ready = expect(Ready.class, "start");
    }

    /**
     * Starts a server and waits until its cluster answers queries.
     *
     * @param name names the server in messages ("the plugin-on server")
     * @param arguments {@link TrinoBenchServer}'s
     */
    static BenchServerProcess start(String name, List<String> arguments)
            throws IOException
    {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow(() -> new IllegalStateException("cannot tell which java runs this JVM")));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(TrinoBenchServer.class.getName());
        command.addAll(arguments);
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            return new BenchServerProcess(name, process);
        }
        catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    Ready ready()
    {
        return ready;
    }

    Result execute(int query)
            throws IOException
    {
        commands.println(BenchServerProtocol.queryCommand(query));
        Result result = expect(Result.class, "q" + query);
        if (result.query() != query) {
            throw new IllegalStateException("%s answered q%d for q%d".formatted(name, result.query(), query));
        }
        return result;
    }

    Status status()
            throws IOException
    {
        commands.println(BenchServerProtocol.STATUS);
        return expect(Status.class, "the status");
    }

    private <T extends Reply> T expect(Class<T> type, String what)
            throws IOException
    {
        for (String line = replies.readLine(); line != null; line = replies.readLine()) {
            Optional<Reply> reply = BenchServerProtocol.decode(line);
            if (reply.isEmpty()) {
                continue;
            }
            if (reply.get() instanceof Failure failure) {
                throw new IllegalStateException(failure.message());
            }
            if (!type.isInstance(reply.get())) {
                throw new IllegalStateException("%s answered %s with %s".formatted(name, what, reply.get()));
            }
            return type.cast(reply.get());
        }
        throw new IllegalStateException("%s ended (exit status %s) before answering %s; its log is above".formatted(name, exitStatus(), what));
    }

    private String exitStatus()
    {
        try {
            return process.waitFor(10, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "none yet";
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** Asks the server to close its cluster and exit; stops it by force when it does not within a minute. */
    @Override
    public void close()
    {
        commands.println(BenchServerProtocol.EXIT);
        commands.close();
        try {
            if (!process.waitFor(1, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor();
            }
        }
        catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString()
    {
        return name;
    }
}
