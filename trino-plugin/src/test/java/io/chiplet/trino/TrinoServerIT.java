package io.chiplet.trino;

import io.chiplet.topology.Snapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
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
 * The oldest supported Trino as operators run it: the release's server tarball (trino-server-core, unpacked by the
 * build), the plugin zip unpacked into its {@code plugin/} folder as {@code chiplet/}, an {@code etc/} as the
 * install guide writes it (one coordinator that also runs tasks, the chiplet catalog on the two-chiplet snapshot of
 * this machine), started with {@code bin/launcher run} on this JDK and queried with the release's own CLI. Query
 * threads are checked in the server's {@code /proc/<pid>/task/<tid>/status}. Every wait is bounded and the server is
 * stopped whatever happens.
 */
class TrinoServerIT
{
    /** The class file version of Java 24, on which Trino 476 runs: nothing in the zip may need more. */
    static final int JAVA_24_CLASS_FILE = 68;

    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Duration QUERY_LIMIT = Duration.ofSeconds(60);
    private static final Duration PLACEMENT_LIMIT = Duration.ofSeconds(45);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(30);

    @Test
    void everyClassOfThePluginZipLoadsOnJava24()
            throws IOException
    {
        Map<String, Integer> tooNew = new HashMap<>();
        int classes = 0;
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(PluginZip.built()))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                if (entry.getName().endsWith(".jar")) {
                    classes += checkJar(entry.getName(), zip.readAllBytes(), tooNew);
                }
            }
        }
        assertThat(classes).as("class files in the zip's jars").isGreaterThan(100);
        assertThat(tooNew.size()).as("classes above Java 24 (class file %d), %d of them, e.g. %s", JAVA_24_CLASS_FILE, tooNew.size(),
                tooNew.entrySet().stream().limit(5).toList()).isZero();
    }

    private static int checkJar(String jar, byte[] bytes, Map<String, Integer> tooNew)
            throws IOException
    {
        int classes = 0;
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(bytes))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                if (!entry.getName().endsWith(".class")) {
                    continue;
                }
                byte[] header = in.readNBytes(8);
                assertThat(header).as("%s!%s", jar, entry.getName()).startsWith(0xCA, 0xFE, 0xBA, 0xBE);
                int major = ((header[6] & 0xFF) << 8) | (header[7] & 0xFF);
                if (major > JAVA_24_CLASS_FILE) {
                    tooNew.put(jar + "!" + entry.getName(), major);
                }
                classes++;
            }
        }
        return classes;
    }

    @Test
    void oldestReleasesServerTarballStartsWithTheCatalogAndPinsQueryThreads(@TempDir Path temp)
            throws Exception
    {
        String version = buildProperty("chiplet.trino.oldest.version");
        Path home = unpackServer(Path.of(buildProperty("chiplet.trino.server.tarball")), version);
        Path cli = Path.of(buildProperty("chiplet.trino.cli.jar"));
        assertThat(cli).isRegularFile();
        installPlugin(home.resolve("plugin/chiplet"));

        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        int port = freePort();
        Path etc = writeEtc(temp, port, snapshot);
        Path log = temp.resolve("server.out");
        Path javaHome = Path.of(System.getProperty("java.home"));
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/launcher").toString(), "run",
                "--etc-dir=" + etc, "--data-dir=" + temp.resolve("data"), "--jvm-dir=" + javaHome)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().put("PATH", javaHome.resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));

        Process server = builder.start();
        try {
            awaitStarted(server, port, log);
            Trino trino = new Trino(cli, port, log, temp);

            assertThat(trino.query("SELECT node_version, coordinator FROM system.runtime.nodes")).containsExactly(List.of(version, "true"));
            assertThat(trino.query("SELECT count(*), sum(x) FROM (VALUES 1, 2, 3) t(x)")).containsExactly(List.of("3", "6"));
            assertThat(trino.query("SELECT placing, policy, topology_source, coalesce(problem, 'none') FROM chiplet.runtime.status"))
                    .containsExactly(List.of("true", "auto", "sysfs:" + snapshot, "none"));
            assertThat(trino.query("SELECT chiplet, cpus FROM chiplet.runtime.topology ORDER BY chiplet"))
                    .containsExactly(List.of("0", "0"), List.of("1", "1"));
            // A catalog with a bad setting did not stop the server: it is up, places nothing and says why.
            assertThat(trino.query("SELECT placing, problem FROM chiplet_off.runtime.status")).singleElement().satisfies(row -> {
                assertThat(row.get(0)).isEqualTo("false");
                assertThat(row.get(1)).startsWith("chiplet.policy=fastest is not usable: expected one of");
            });

            // The session property manager sized task_concurrency on what the node that runs tasks (this one, with
            // include-coordinator=true) reported of its catalog's snapshot: two one-core chiplets.
            String sized = awaitLogLine(log, "Chiplet session defaults on the topology the workers reported (1 worker: chiplet-it on ");
            assertThat(sized).contains("with 2 chiplets and 2 cores").contains("task_concurrency 2 (");
            assertThat(trino.query("SHOW SESSION LIKE 'task_concurrency'")).singleElement()
                    .satisfies(row -> assertThat(row.get(1)).as("task_concurrency of a new session").isEqualTo("2"));

            // Runner threads come and go with the queries: each query makes some, and the agent pins them within a rescan.
            long pid = serverPid(server);
            Map<Integer, String> pinned = Map.of();
            long deadline = System.nanoTime() + PLACEMENT_LIMIT.toNanos();
            while (pinned.isEmpty() && System.nanoTime() < deadline) {
                List<List<String>> placement = trino.query("SELECT tid, cpus FROM chiplet.runtime.placement WHERE thread_name LIKE 'SplitRunner-%'");
                pinned = pinnedRunners(pid, placement);
            }
            assertThat(pinned).as("SplitRunner threads of pid %d pinned to one chiplet each, as chiplet.runtime.placement says; log:%n%s", pid, tail(log))
                    .isNotEmpty()
                    .allSatisfy((tid, cpus) -> assertThat(cpus).isIn("0", "1"));

            String output = Files.readString(log);
            assertThat(output).contains("Installing io.chiplet.trino.ChipletTrinoPlugin")
                    .contains("Chiplet placement on node chiplet-it: policy auto, chiplets [0, 1] (CPUs 0-1) of 2 from sysfs:" + snapshot)
                    .doesNotContain("has been called by io.chiplet")
                    .doesNotContain("Chiplet skew listener off")
                    .doesNotContain("Chiplet session property manager:");
            assertThat(output.lines().filter(line -> line.contains("no thread placement")))
                    .as("one warning, for the bad catalog")
                    .singleElement()
                    .satisfies(line -> assertThat(line).contains("Chiplet catalog chiplet_off on node chiplet-it: no thread placement, Trino runs as without it: chiplet.policy=fastest"));
        }
        finally {
            stop(server);
        }
        assertThat(server.isAlive()).as("server stopped").isFalse();
    }

    /**
     * Every SplitRunner thread of the server the placement table lists that is alive in {@code /proc} with the mask the
     * table gives, by tid; empty unless every live SplitRunner thread of the server is pinned to one CPU set of the table.
     */
    static Map<Integer, String> pinnedRunners(long pid, List<List<String>> placement)
            throws IOException
    {
        Map<Integer, String> table = new HashMap<>();
        for (List<String> row : placement) {
            table.put(Integer.parseInt(row.get(0)), row.get(1));
        }
        Map<Integer, String> pinned = new HashMap<>();
        boolean allPinned = true;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                Optional<Map<String, String>> status = readStatus(task.resolve("status"));
                if (status.isEmpty() || !status.get().getOrDefault("Name", "").startsWith("SplitRunner-")) {
                    continue;
                }
                int tid = Integer.parseInt(task.getFileName().toString());
                String cpus = status.get().get("Cpus_allowed_list");
                if (cpus.equals(table.get(tid))) {
                    pinned.put(tid, cpus);
                }
                else {
                    // Made since the agent's last scan, or not pinned at all: look again.
                    allPinned = false;
                }
            }
        }
        return allPinned ? pinned : Map.of();
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

    private static Path writeEtc(Path temp, int port, Path snapshot)
            throws IOException
    {
        Path etc = temp.resolve("etc");
        Files.createDirectories(etc.resolve("catalog"));
        Files.writeString(etc.resolve("node.properties"), """
                node.environment=chiplet_it
                node.id=chiplet-it
                node.data-dir=%s
                """.formatted(temp.resolve("data")));
        // What Trino's deployment guide gives a server, small: the Vector API module, and native access for FFM.
        Files.writeString(etc.resolve("jvm.config"), """
                -server
                -Xmx1G
                -XX:+UseG1GC
                -XX:+ExitOnOutOfMemoryError
                -Djdk.attach.allowAttachSelf=true
                --add-modules=jdk.incubator.vector
                --enable-native-access=ALL-UNNAMED
                """);
        Files.writeString(etc.resolve("config.properties"), """
                coordinator=true
                node-scheduler.include-coordinator=true
                http-server.http.port=%d
                discovery.uri=http://127.0.0.1:%d
                query.max-memory=512MB
                query.max-memory-per-node=256MB
                """.formatted(port, port));
        Files.writeString(etc.resolve("catalog/chiplet.properties"), """
                connector.name=chiplet
                chiplet.fs-root=%s
                chiplet.lease-dir=%s
                chiplet.rescan-interval=100ms
                chiplet.measure.enabled=false
                """.formatted(snapshot, temp.resolve("leases")));
        // The coordinator parts, on their defaults: the session property manager reads the coordinator's live topology.
        Files.writeString(etc.resolve("session-property-config.properties"), """
                session-property-config.configuration-manager=chiplet
                """);
        Files.writeString(etc.resolve("event-listener.properties"), """
                event-listener.name=chiplet
                """);
        Files.writeString(etc.resolve("catalog/chiplet_off.properties"), """
                connector.name=chiplet
                chiplet.policy=fastest
                """);
        return etc;
    }

    static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
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

    /** The release's own command line client, one JVM per statement, output as tab-separated rows. */
    record Trino(Path cli, int port, Path serverLog, Path scratch)
    {
        List<List<String>> query(String sql)
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
}
