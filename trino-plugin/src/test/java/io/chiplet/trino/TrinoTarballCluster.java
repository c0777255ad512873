package io.chiplet.trino;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Trino servers as operators run them, for the tests that start the real thing (TrinoServerIT, TrinoClusterIT,
 * TrinoMeasureIT): the oldest supported release's server tarball (trino-server-core, copied by the build) unpacked once,
 * the plugin zip unpacked into its {@code plugin/} folder as {@code chiplet/}, servers started with
 * {@code bin/launcher run} on this JDK on free loopback ports, and the bounded waits and reads of {@code /proc} the tests
 * check them with. Every wait is bounded; {@link #stop} ends a server and whatever it started.
 */
final class TrinoTarballCluster
{
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Duration NODES_LIMIT = Duration.ofSeconds(90);
    private static final Duration QUERY_LIMIT = Duration.ofSeconds(60);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(30);

    private TrinoTarballCluster() {}

    /** Runs SQL on a server and returns the rows, each cell as text; fails the test with the server's log when a statement fails. */
    @FunctionalInterface
    interface Queries
    {
        List<List<String>> query(String sql)
                throws IOException, InterruptedException;
    }

    /** The oldest release's server folder, unpacked, with the plugin zip installed as {@code plugin/chiplet}. */
    static Path installedServer()
            throws IOException, InterruptedException
    {
        String version = oldestVersion();
        Path home = unpackServer(Path.of(buildProperty("chiplet.trino.server.tarball")), version);
        installPlugin(home.resolve("plugin/chiplet"));
        return home;
    }

    static String oldestVersion()
    {
        return buildProperty("chiplet.trino.oldest.version");
    }

    static String buildProperty(String name)
    {
        String value = System.getProperty(name);
        assertThat(value).as("%s, which failsafe sets in verify (./mvnw -pl trino-plugin verify -Dit.test=TrinoServerIT)", name).isNotBlank();
        return value;
    }

    /** The server's installation folder, unpacked beside the tarball once (tar keeps the tarball's hard links and modes). */
    static Path unpackServer(Path tarball, String version)
            throws IOException, InterruptedException
    {
        assertThat(tarball).as("trino-server-core %s, copied by the build", version).isRegularFile();
        Path home = tarball.resolveSibling("trino-server-core-" + version);
        Path unpacked = tarball.resolveSibling(".unpacked-" + version);
        if (!Files.exists(unpacked)) {
            Process tar = new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", tarball.getParent().toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            assertThat(tar.waitFor(120, TimeUnit.SECONDS)).as("tar xzf %s within 2 minutes", tarball).isTrue();
            assertThat(tar.exitValue()).as("tar xzf %s", tarball).isZero();
            Files.createFile(unpacked);
        }
        assertThat(home.resolve("bin/launcher")).isExecutable();
        return home;
    }

    /**
     * Trino's JMX connector, as the full server tarball ({@code io.trino:trino-server}) ships it, copied into
     * {@code home/plugin/jmx}: trino-server-core has no connectors beyond a few, and {@code io.trino:trino-jmx} is on
     * Maven Central up to 449 only. The connector's jars are hard links to the tarball's {@code lib/}, so both are
     * unpacked (about 95 MB, once per clean build) and the connector's files copied.
     */
    static void installJmxConnector(Path home, Path fullTarball, String version)
            throws IOException, InterruptedException
    {
        assertThat(fullTarball).as("trino-server %s (the full tarball), copied by the build", version).isRegularFile();
        Path into = fullTarball.resolveSibling("full-" + version);
        Path connector = into.resolve("trino-server-" + version + "/plugin/jmx");
        Path unpacked = fullTarball.resolveSibling(".unpacked-full-" + version);
        if (!Files.exists(unpacked)) {
            Files.createDirectories(into);
            Process tar = new ProcessBuilder("tar", "xzf", fullTarball.toString(), "-C", into.toString(),
                    "trino-server-" + version + "/lib", "trino-server-" + version + "/plugin/jmx")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            assertThat(tar.waitFor(300, TimeUnit.SECONDS)).as("tar xzf %s within 5 minutes", fullTarball).isTrue();
            assertThat(tar.exitValue()).as("tar xzf %s", fullTarball).isZero();
            Files.createFile(unpacked);
        }
        Path target = home.resolve("plugin/jmx");
        if (!Files.exists(target)) {
            Files.createDirectories(target);
            try (Stream<Path> jars = Files.list(connector)) {
                for (Path jar : jars.toList()) {
                    Files.copy(jar, target.resolve(jar.getFileName().toString()));
                }
            }
        }
        assertThat(target.resolve("io.trino_trino-jmx-" + version + ".jar")).isRegularFile();
    }

    static void installPlugin(Path target)
            throws IOException
    {
        if (Files.exists(target)) {
            try (Stream<Path> old = Files.walk(target)) {
                for (Path path : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
        Files.createDirectories(target);
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(PluginZip.built()))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                String inside = entry.getName().substring(entry.getName().indexOf('/') + 1);
                if (!entry.isDirectory() && !inside.isEmpty()) {
                    Files.copy(in, target.resolve(inside));
                }
            }
        }
    }

    static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** {@code bin/launcher run} of {@code home} on {@code etc} and {@code dataDir}, on this JDK, its output into {@code log}. */
    static Process launch(Path home, Path etc, Path dataDir, Path log)
            throws IOException
    {
        Path javaHome = Path.of(System.getProperty("java.home"));
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/launcher").toString(), "run",
                "--etc-dir=" + etc, "--data-dir=" + dataDir, "--jvm-dir=" + javaHome)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().put("PATH", javaHome.resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        return builder.start();
    }

    /** Until {@code /v1/info} says the server is no longer starting; fails with the log when it dies or takes too long. */
    static void awaitStarted(Process server, int port, Path log)
            throws IOException, InterruptedException
    {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest info = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/info")).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                fail("the server exited with %d before it started; log:%n%s", server.exitValue(), tail(log));
            }
            try {
                HttpResponse<String> response = http.send(info, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().replace(" ", "").contains("\"starting\":false")) {
                    return;
                }
            }
            catch (IOException e) {
                // Not listening yet.
            }
            Thread.sleep(500);
        }
        fail("the server did not start within %s; log:%n%s", START_LIMIT, tail(log));
    }

    /** Until the coordinator counts {@code nodes} active nodes (itself included); fails with its log when a server exits or they take too long. */
    static void awaitActiveNodes(Queries trino, List<Process> servers, Path coordinatorLog, int nodes)
            throws Exception
    {
        long deadline = System.nanoTime() + NODES_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (Process server : servers) {
                if (!server.isAlive()) {
                    fail("a server exited with %d; coordinator log:%n%s", server.exitValue(), tail(coordinatorLog));
                }
            }
            if (trino.query("SELECT count(*) FROM system.runtime.nodes WHERE state = 'active'").equals(List.of(List.of(Integer.toString(nodes))))) {
                return;
            }
            Thread.sleep(1000);
        }
        fail("not all %d nodes were active within %s; coordinator log:%n%s", nodes, NODES_LIMIT, tail(coordinatorLog));
    }

    /** Ends the server (the launcher's JVM) and every process it started, forcibly after 30 s. */
    static void stop(Process server)
            throws InterruptedException
    {
        List<ProcessHandle> all = new ArrayList<>(server.descendants().toList());
        server.destroy();
        if (!server.waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
        }
        all.forEach(ProcessHandle::destroyForcibly);
    }

    static void stopAll(List<Process> servers)
            throws InterruptedException
    {
        for (Process server : servers) {
            stop(server);
        }
    }

    /** The last 60 lines of a log, for a failure message. */
    static String tail(Path log)
    {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        }
        catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** A thread's status fields; empty when the thread ended while being read. */
    static Optional<Map<String, String>> readStatus(Path status)
    {
        try {
            Map<String, String> fields = new HashMap<>();
            for (String line : Files.readAllLines(status)) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
                }
            }
            return Optional.of(fields);
        }
        catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /** The first line of {@code log} that holds {@code start}, from there on, waited for up to 90 s (three JVMs on two busy cores). */
    static String awaitLogLine(Path log, String start)
            throws IOException, InterruptedException
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            Optional<String> line = Files.readAllLines(log).stream().filter(text -> text.contains(start)).findFirst();
            if (line.isPresent()) {
                return line.get().substring(line.get().indexOf(start));
            }
            if (System.nanoTime() > deadline) {
                fail("no log line holding %s within 90 s; log:%n%s", start, tail(log));
            }
            Thread.sleep(500);
        }
    }

    /** The server JVM: the launcher replaces itself with it, and only a launcher of another kind would fork. */
    static long serverPid(Process server)
    {
        return Stream.concat(Stream.of(server.toHandle()), server.descendants())
                .filter(process -> process.info().command().map(command -> command.endsWith("/java")).orElse(false))
                .findFirst()
                .map(ProcessHandle::pid)
                .orElseThrow(() -> new AssertionError("no java process under the launcher " + server.pid()));
    }

    /** The release's own command line client, one JVM per statement, output as tab-separated rows. */
    record CliQueries(Path cli, int port, Path serverLog, Path scratch)
            implements Queries
    {
        @Override
        public List<List<String>> query(String sql)
                throws IOException, InterruptedException
        {
            Path out = Files.createTempFile(scratch, "cli", ".out");
            Path err = Files.createTempFile(scratch, "cli", ".err");
            Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-jar", cli.toString(),
                    "--server", "http://127.0.0.1:" + port, "--user", "chiplet-it", "--output-format", "TSV", "--execute", sql)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!process.waitFor(QUERY_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("%s did not finish within %s", sql, QUERY_LIMIT);
            }
            assertThat(process.exitValue()).as("%s: %s%nserver log:%n%s", sql, Files.readString(err), tail(serverLog)).isZero();
            return Files.readAllLines(out).stream().filter(line -> !line.isEmpty()).map(line -> List.of(line.split("\t", -1))).toList();
        }
    }

    /**
     * One server of a cluster on this host: its own {@code etc/} and data directory, small heaps (several JVMs on two
     * cores), a coordinator that runs no tasks ({@code node-scheduler.include-coordinator=false}).
     *
     * @param environment {@code node.environment}, the same for every node of one cluster
     */
    record Node(String environment, String id, Path root, int port)
    {
        Path etc()
        {
            return root.resolve("etc");
        }

        Path dataDir()
        {
            return root.resolve("data");
        }

        Path log()
        {
            return root.resolve("server.out");
        }

        /**
         * @param chipletCatalog {@code etc/catalog/chiplet.properties}
         * @param jvmOptions options added to {@code jvm.config}
         */
        void writeEtc(int coordinatorPort, boolean coordinator, String chipletCatalog, String... jvmOptions)
                throws IOException
        {
            Files.createDirectories(etc().resolve("catalog"));
            Files.writeString(etc().resolve("node.properties"), """
                    node.environment=%s
                    node.id=%s
                    node.data-dir=%s
                    node.internal-address=127.0.0.1
                    """.formatted(environment, id, dataDir()));
            Files.writeString(etc().resolve("jvm.config"), """
                    -server
                    -Xmx640M
                    -XX:+UseSerialGC
                    -XX:TieredStopAtLevel=1
                    -XX:+ExitOnOutOfMemoryError
                    -Djdk.attach.allowAttachSelf=true
                    %s--add-modules=jdk.incubator.vector
                    --enable-native-access=ALL-UNNAMED
                    """.formatted(String.join("", Stream.of(jvmOptions).map(option -> option + "\n").toList())));
            Files.writeString(etc().resolve("config.properties"), """
                    coordinator=%s
                    node-scheduler.include-coordinator=false
                    http-server.http.port=%d
                    discovery.uri=http://127.0.0.1:%d
                    query.max-memory=256MB
                    query.max-memory-per-node=128MB
                    task.max-worker-threads=4
                    """.formatted(coordinator, port, coordinatorPort));
            Files.writeString(etc().resolve("catalog/chiplet.properties"), chipletCatalog);
        }

        /** Another file of {@code etc/}, e.g. {@code event-listener.properties}. */
        void writeEtcFile(String name, String content)
                throws IOException
        {
            Files.writeString(etc().resolve(name), content);
        }

        Process start(Path home)
                throws IOException
        {
            return launch(home, etc(), dataDir(), log());
        }
    }
}
