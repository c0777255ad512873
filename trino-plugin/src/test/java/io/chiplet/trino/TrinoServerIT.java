package io.chiplet.trino;

import io.chiplet.topology.Snapshots;
import io.chiplet.trino.TrinoTarballCluster.CliQueries;
import io.chiplet.trino.TrinoTarballCluster.Queries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static io.chiplet.trino.TrinoTarballCluster.awaitLogLine;
import static io.chiplet.trino.TrinoTarballCluster.awaitStarted;
import static io.chiplet.trino.TrinoTarballCluster.buildProperty;
import static io.chiplet.trino.TrinoTarballCluster.freePort;
import static io.chiplet.trino.TrinoTarballCluster.installedServer;
import static io.chiplet.trino.TrinoTarballCluster.launch;
import static io.chiplet.trino.TrinoTarballCluster.oldestVersion;
import static io.chiplet.trino.TrinoTarballCluster.readStatus;
import static io.chiplet.trino.TrinoTarballCluster.serverPid;
import static io.chiplet.trino.TrinoTarballCluster.stop;
import static io.chiplet.trino.TrinoTarballCluster.tail;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The oldest supported Trino as operators run it: the release's server tarball (trino-server-core, unpacked by the
 * build, with the JMX connector of the full tarball), the plugin zip unpacked into its {@code plugin/} folder as {@code chiplet/}, an {@code etc/} as the
 * install guide writes it (one coordinator that also runs tasks, the chiplet catalog on the two-chiplet snapshot of
 * this machine), started with {@code bin/launcher run} on this JDK and queried with the release's own CLI. Query
 * threads are checked in the server's {@code /proc/<pid>/task/<tid>/status}. Every wait is bounded and the server is
 * stopped whatever happens.
 */
class TrinoServerIT
{
    /** The class file version of Java 24, on which Trino 476 runs: nothing in the zip may need more. */
    static final int JAVA_24_CLASS_FILE = 68;

    private static final Duration PLACEMENT_LIMIT = Duration.ofSeconds(45);

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
        String version = oldestVersion();
        Path home = installedServer();
        TrinoTarballCluster.installJmxConnector(home, Path.of(buildProperty("chiplet.trino.server.full.tarball")), version);
        Path cli = Path.of(buildProperty("chiplet.trino.cli.jar"));
        assertThat(cli).isRegularFile();

        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        int port = freePort();
        Path etc = writeEtc(temp, port, snapshot);
        Path log = temp.resolve("server.out");

        Process server = launch(home, etc, temp.resolve("data"), log);
        try {
            awaitStarted(server, port, log);
            Queries trino = new CliQueries(cli, port, log, temp);

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

            // The catalog's JMX beans, in the MBean server Trino exports (its JMX connector reads the same server).
            String bean = jmxBean(port, "io.chiplet.trino:type=Placement,name=chiplet");
            assertThat(bean).as(bean).contains("\"name\":\"Placing\"").contains("\"name\":\"ThreadsPerChiplet\"").contains("\"value\":\"auto\"");
            assertThat(jmxBean(port, "io.chiplet.trino:type=Placement,name=chiplet_off")).contains("chiplet.policy=fastest is not usable");
            // Trino's own JMX connector lists and reads them, as docs/observability.md shows it.
            assertThat(trino.query("SHOW TABLES FROM jmx.current LIKE 'io.chiplet.trino:%'")).as("the chiplet beans among jmx.current's tables")
                    .contains(List.of("io.chiplet.trino:name=chiplet,type=placement"), List.of("io.chiplet.trino:name=chiplet_off,type=placement"));
            assertThat(trino.query("SELECT node, placing, policy, usablechiplets FROM jmx.current.\"io.chiplet.trino:name=chiplet,type=placement\""))
                    .containsExactly(List.of("chiplet-it", "true", "auto", "2"));

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

    /** A JMX bean's attributes as Trino's {@code /v1/jmx/mbean} resource serves them (JSON). */
    static String jmxBean(int port, String name)
            throws IOException, InterruptedException
    {
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/v1/jmx/mbean/" + name))
                .header("X-Trino-User", "chiplet-it").timeout(Duration.ofSeconds(20)).build();
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", request.uri(), response.body()).isEqualTo(200);
        return response.body();
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
        // Trino's JMX connector (copied from the full server tarball), over the MBean server the chiplet beans are in.
        Files.writeString(etc.resolve("catalog/jmx.properties"), """
                connector.name=jmx
                """);
        Files.writeString(etc.resolve("catalog/chiplet_off.properties"), """
                connector.name=chiplet
                chiplet.policy=fastest
                """);
        return etc;
    }
}
