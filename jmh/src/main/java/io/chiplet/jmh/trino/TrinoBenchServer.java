package io.chiplet.jmh.trino;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.chiplet.jmh.tpch.ResultFingerprints.Fingerprint;
import io.chiplet.jmh.trino.BenchServerProtocol.Failure;
import io.chiplet.jmh.trino.BenchServerProtocol.Placement;
import io.chiplet.jmh.trino.BenchServerProtocol.Ready;
import io.chiplet.jmh.trino.BenchServerProtocol.Result;
import io.chiplet.jmh.trino.BenchServerProtocol.Status;
import io.chiplet.tpch.TpchQueries;
import io.chiplet.trino.ChipletTrinoPlugin;
import io.chiplet.trino.connector.TrinoSettings;
import io.chiplet.trino.measure.MeasureKeys;
import io.chiplet.trino.session.SessionManagerSettings;
import io.trino.Session;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static java.util.Objects.requireNonNull;

/**
 * One side of {@link TrinoTpchOnOffBenchmark}: a Trino cluster in a JVM of its own, with the chiplet plugin or
 * without, running the TPC-H queries the benchmark asks for over {@link BenchServerProtocol} until told to exit (or
 * until its standard input ends, as when the benchmark dies).
 * <p>
 * One cluster per JVM is how Trino runs in production, and it keeps the sides apart: the placement agent sees this
 * JVM's threads only (it lists {@code /proc/self/task}), and neither side's JIT profiles, heap or class loaders are
 * the other's.
 * <p>
 * The cluster is a {@link DistributedQueryRunner} with a coordinator and one worker, the coordinator running no tasks:
 * a production cluster's shape, in which the worker's query threads are the ones the placement agent places and the
 * coordinator holds the session property manager. On two CPUs one worker is what fits: every Trino node has its own
 * pool of {@code 2 x CPUs} query threads, so more nodes would only add pools (and exchanges over HTTP) competing for
 * the same CPUs. Joins are distributed as a default Trino does ({@code AUTOMATIC}, which the runner replaces by
 * {@code PARTITIONED} for its tests). The data is the {@code tpch} connector's, generated on the fly by every query.
 *
 * <pre>
 * TrinoBenchServer --plugin on|off --schema sf1 [--lease-dir DIR] [--set name=value]...
 * </pre>
 * "on" installs {@link ChipletTrinoPlugin}, creates a {@code chiplet} catalog (so the worker's placement agent places
 * the query threads; its leases in {@code --lease-dir}) and loads the {@code chiplet} session property manager with
 * skew feedback off, so that every query runs with the same settings. "off" is plain Trino, its session given the
 * {@code --set} properties.
 */
public final class TrinoBenchServer
        implements AutoCloseable
{
    /** Nodes that run tasks: the one worker. */
    static final int TASK_NODES = 1;

    /** The column names and types the TPC-H queries are written for. */
    private static final Map<String, String> TPCH_CATALOG = Map.of("tpch.column-naming", "STANDARD", "tpch.double-type-mapping", "DECIMAL");

    private final boolean plugin;
    private final DistributedQueryRunner runner;
    private final Session session;

    private TrinoBenchServer(boolean plugin, DistributedQueryRunner runner, Session session)
    {
        this.plugin = plugin;
        this.runner = requireNonNull(runner, "runner is null");
        this.session = requireNonNull(session, "session is null");
    }

    /**
     * @param settings system session properties the session sets itself (the "off" side: what the plugin chose)
     * @param leaseDirectory where the plugin's chiplet leases go (a directory of the benchmark's own, so that other
     *         Trino JVMs on the host neither take the chiplets this side should use nor are taken from)
     */
    static TrinoBenchServer start(boolean plugin, String schema, Map<String, String> settings, Optional<Path> leaseDirectory)
            throws Exception
    {
        Session base = testSessionBuilder()
                .setCatalog("tpch")
                .setSchema(schema)
                .setSource("chiplet-bench")
                .build();
        DistributedQueryRunner runner = DistributedQueryRunner.builder(base)
                .setWorkerCount(TASK_NODES)
                .addCoordinatorProperty("node-scheduler.include-coordinator", "false")
                // Trino's own default, which the testing runner replaces by PARTITIONED for its tests.
                .addCoordinatorProperty("join-distribution-type", "AUTOMATIC")
                .build();
        try {
            runner.installPlugin(new TpchPlugin());
            runner.createCatalog("tpch", "tpch", TPCH_CATALOG);
            if (plugin) {
                runner.installPlugin(new ChipletTrinoPlugin());
                Map<String, String> catalog = new LinkedHashMap<>();
                leaseDirectory.ifPresent(directory -> catalog.put(TrinoSettings.LEASE_DIR, directory.toString()));
                // The benchmark compares plugin on with plugin off: "on" places every window (no in-place control windows).
                catalog.put(MeasureKeys.ENABLED, "false");
                runner.createCatalog("chiplet", "chiplet", catalog);
                // As etc/session-property-config.properties would; the worker count and topology are given (the
                // worker runs in this JVM, on this machine), not learned from the listener and the workers' reports, so
                // that the first query already gets every default.
                runner.getCoordinator().getSessionPropertyDefaults().setConfigurationManager("chiplet", Map.of(
                        SessionManagerSettings.FS_ROOT, "/",
                        SessionManagerSettings.WORKERS, Integer.toString(TASK_NODES),
                        SessionManagerSettings.SKEW_WINDOW_QUERIES, "0"));
            }
            Session.SessionBuilder session = Session.builder(base);
            settings.forEach(session::setSystemProperty);
            return new TrinoBenchServer(plugin, runner, session.build());
        }
        catch (Exception | Error e) {
            runner.close();
            throw e;
        }
    }

    /** The named system session properties as a query of this server sees them ({@code SHOW SESSION}). */
    Map<String, String> effectiveSettings(List<String> names)
    {
        Map<String, String> settings = new LinkedHashMap<>();
        for (MaterializedRow row : runner.execute(session, "SHOW SESSION").getMaterializedRows()) {
            String name = (String) row.getField(0);
            if (names.contains(name)) {
                settings.put(name, (String) row.getField(1));
            }
        }
        if (!settings.keySet().containsAll(names)) {
            throw new IllegalStateException("SHOW SESSION lacks some of " + names + ": " + settings);
        }
        return settings;
    }

    /** How the plugin's agent places on the node that runs tasks; empty without the plugin. */
    Optional<Placement> placement()
    {
        if (!plugin) {
            return Optional.empty();
        }
        List<MaterializedRow> rows = runner.execute(session, "SELECT placing, policy, topology_source, threads, problem FROM chiplet.runtime.status")
                .getMaterializedRows();
        if (rows.size() != TASK_NODES) {
            throw new IllegalStateException("chiplet.runtime.status answered for %d nodes, expected the %d that run tasks".formatted(rows.size(), TASK_NODES));
        }
        MaterializedRow row = rows.getFirst();
        return Optional.of(new Placement(Boolean.TRUE.equals(row.getField(0)), String.valueOf(row.getField(1)), String.valueOf(row.getField(2)),
                row.getField(3) instanceof Long threads ? threads : 0, Optional.ofNullable(row.getField(4)).map(String::valueOf).orElse("")));
    }

    Result execute(int query)
    {
        String sql = TpchQueries.query(query, TpchQueries.Dialect.TRINO);
        long begin = System.nanoTime();
        MaterializedResult result = runner.execute(session, sql);
        long nanos = System.nanoTime() - begin;
        return new Result(query, nanos, Fingerprint.of(result.getMaterializedRows().stream().map(MaterializedRow::getFields).toList()));
    }

    @Override
    public void close()
    {
        runner.close();
    }

    public static void main(String[] args)
    {
        // Airlift's logging takes System.out and System.err over: the protocol keeps the real standard output for
        // itself, a failure's stack trace goes to the real standard error.
        PrintStream replies = System.out;
        PrintStream errors = System.err;
        Logging logging = Logging.initialize();
        logging.setLevel("", Level.WARN);
        logging.setLevel("io.chiplet", Level.INFO);
        int status = serve(args, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), replies, errors);
        System.exit(status);
    }

    private static int serve(String[] args, BufferedReader commands, PrintStream replies, PrintStream errors)
    {
        boolean plugin = false;
        String schema = null;
        Optional<Path> leaseDirectory = Optional.empty();
        Map<String, String> settings = new LinkedHashMap<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : "";
                switch (args[i]) {
                    case "--plugin" -> plugin = switch (value) {
                        case "on" -> true;
                        case "off" -> false;
                        default -> throw new IllegalArgumentException("--plugin: expected on or off, got '" + value + "'");
                    };
                    case "--schema" -> schema = value;
                    case "--lease-dir" -> leaseDirectory = Optional.of(Path.of(value));
                    case "--set" -> {
                        int equals = value.indexOf('=');
                        if (equals < 1) {
                            throw new IllegalArgumentException("--set: expected name=value, got '" + value + "'");
                        }
                        settings.put(value.substring(0, equals), value.substring(equals + 1));
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
                i++;
            }
            if (schema == null || schema.isEmpty()) {
                throw new IllegalArgumentException("--schema: expected the tpch schema to read, such as sf1");
            }
        }
        catch (IllegalArgumentException e) {
            reply(replies, new Failure("TrinoBenchServer: " + e.getMessage()));
            return 2;
        }
        try (TrinoBenchServer server = start(plugin, schema, settings, leaseDirectory)) {
            reply(replies, new Ready(server.effectiveSettings(TrinoTpchOnOffBenchmark.SESSION_PROPERTIES), server.placement()));
            for (String command = commands.readLine(); command != null; command = commands.readLine()) {
                if (command.equals(BenchServerProtocol.EXIT)) {
                    break;
                }
                if (command.equals(BenchServerProtocol.STATUS)) {
                    reply(replies, new Status(server.placement()));
                }
                else if (command.startsWith(BenchServerProtocol.QUERY + " ")) {
                    reply(replies, server.execute(Integer.parseInt(command.substring(BenchServerProtocol.QUERY.length() + 1))));
                }
                else {
                    throw new IllegalArgumentException("unknown command '" + command + "'");
                }
            }
            return 0;
        }
        catch (Exception | Error e) {
            e.printStackTrace(errors);
            reply(replies, new Failure("the plugin-" + (plugin ? "on" : "off") + " Trino server failed: " + e));
            return 1;
        }
    }

    private static void reply(PrintStream replies, BenchServerProtocol.Reply reply)
    {
        replies.println(BenchServerProtocol.encode(reply));
        replies.flush();
    }
}
