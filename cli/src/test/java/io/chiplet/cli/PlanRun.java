package io.chiplet.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * {@code chiplet plan} run in-process, as a user runs it ({@link AdviseRun}'s counterpart), its output as text or its
 * JSON workers read back: for tests that compare what a runner (a plugin, the JMH harness) binds with what
 * {@code plan} prints.
 */
public final class PlanRun
{
    private static final JsonFactory JSON = new JsonFactory();

    private PlanRun() {}

    /**
     * One worker of {@code plan --format json}: {@code cpus} empty where it is not bound ({@code wim}), {@code memoryNode}
     * empty where its memory is not bound, {@code chiplet} empty where it spans chiplets.
     */
    public record PlannedWorker(int worker, OptionalInt chiplet, Optional<CpuSet> cpus, OptionalInt memoryNode)
    {
        public PlannedWorker
        {
            requireNonNull(chiplet, "chiplet is null");
            requireNonNull(cpus, "cpus is null");
            requireNonNull(memoryNode, "memoryNode is null");
        }
    }

    /**
     * Runs {@code chiplet plan ARGS --format json} and returns its workers in order.
     *
     * @throws AssertionError with the error output when the command does not exit 0
     */
    public static List<PlannedWorker> workers(String... args)
    {
        return parse(json(args));
    }

    /** The JSON document {@code chiplet plan ARGS --format json} prints. */
    public static String json(String... args)
    {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--format", "json"));
        return output(all.toArray(String[]::new));
    }

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
        requireNonNull(topology, "topology is null");
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

    static List<PlannedWorker> parse(String json)
    {
        List<PlannedWorker> workers = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(json)) {
            expect(parser.nextToken(), JsonToken.START_OBJECT, json);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (!field.equals("workers")) {
                    parser.skipChildren();
                    continue;
                }
                expect(value, JsonToken.START_ARRAY, json);
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    workers.add(worker(parser, json));
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read chiplet plan's JSON: " + json, e);
        }
        return workers;
    }

    private static PlannedWorker worker(JsonParser parser, String json)
            throws IOException
    {
        int worker = -1;
        OptionalInt chiplet = OptionalInt.empty();
        Optional<CpuSet> cpus = Optional.empty();
        OptionalInt memoryNode = OptionalInt.empty();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            switch (field) {
                case "worker" -> worker = parser.getIntValue();
                case "chiplet" -> chiplet = OptionalInt.of(parser.getIntValue());
                case "cpus" -> cpus = Optional.of(CpuSet.parseList(parser.getText()));
                case "memoryNode" -> memoryNode = OptionalInt.of(parser.getIntValue());
                default -> throw new AssertionError("unexpected field \"" + field + "\" of a worker in chiplet plan's JSON: " + json);
            }
        }
        if (worker < 0) {
            throw new AssertionError("a worker without \"worker\" in chiplet plan's JSON: " + json);
        }
        return new PlannedWorker(worker, chiplet, cpus, memoryNode);
    }

    private static void expect(JsonToken token, JsonToken expected, String json)
    {
        if (token != expected) {
            throw new AssertionError("expected " + expected + " but got " + token + " in chiplet plan's JSON: " + json);
        }
    }
}
