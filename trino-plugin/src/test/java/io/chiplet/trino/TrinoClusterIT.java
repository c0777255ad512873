package io.chiplet.trino;

import io.chiplet.cli.AdviseRun;
import io.chiplet.topology.Snapshots;
import io.chiplet.trino.TrinoTarballCluster.CliQueries;
import io.chiplet.trino.TrinoTarballCluster.Node;
import io.chiplet.trino.TrinoTarballCluster.Queries;
import io.chiplet.trino.cluster.WorkerReportsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static io.chiplet.trino.TrinoTarballCluster.awaitActiveNodes;
import static io.chiplet.trino.TrinoTarballCluster.awaitLogLine;
import static io.chiplet.trino.TrinoTarballCluster.awaitStarted;
import static io.chiplet.trino.TrinoTarballCluster.buildProperty;
import static io.chiplet.trino.TrinoTarballCluster.freePort;
import static io.chiplet.trino.TrinoTarballCluster.installedServer;
import static io.chiplet.trino.TrinoTarballCluster.readStatus;
import static io.chiplet.trino.TrinoTarballCluster.serverPid;
import static io.chiplet.trino.TrinoTarballCluster.stopAll;
import static io.chiplet.trino.TrinoTarballCluster.tail;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Trino 476 cluster as operators run one, from the release's server tarball: a coordinator that runs no tasks
 * ({@code node-scheduler.include-coordinator=false}) with the session property manager and the event listener, and two
 * workers, three JVMs started with {@code bin/launcher run} on one host. The workers' catalogs read the two-chiplet
 * snapshot of this machine and lease one chiplet each; the coordinator's catalog reads the live machine (another root:
 * one L3, so one chiplet of two cores), which must leak into nothing. Checks, from outside the JVMs where it can: results
 * equal the same computation without the plugin's catalog, no query failed, each worker's query threads on its own
 * chiplet in {@code /proc}, the coordinator holding no lease and pinning nothing, and the session defaults equal to what
 * {@code chiplet advise --engine trino} prints for the workers' snapshot with two workers per host.
 */
class TrinoClusterIT
{
    private static final Duration PLACEMENT_LIMIT = Duration.ofSeconds(60);
    private static final String ENVIRONMENT = "chiplet_cluster_it";

    @Test
    void coordinatorThatRunsNoTasksAndTwoWorkers(@TempDir Path temp)
            throws Exception
    {
        Path home = installedServer();
        Path cli = Path.of(buildProperty("chiplet.trino.cli.jar"));

        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        Path leases = temp.resolve("leases");
        int coordinatorPort = freePort();
        Node coordinator = new Node(ENVIRONMENT, "coordinator", temp.resolve("coordinator"), coordinatorPort);
        Node worker1 = new Node(ENVIRONMENT, "worker-1", temp.resolve("worker-1"), freePort());
        Node worker2 = new Node(ENVIRONMENT, "worker-2", temp.resolve("worker-2"), freePort());
        coordinator.writeEtc(coordinatorPort, true, """
                connector.name=chiplet
                chiplet.lease-dir=%s
                chiplet.measure.enabled=false
                """.formatted(leases));
        coordinator.writeEtcFile("session-property-config.properties", """
                session-property-config.configuration-manager=chiplet
                """);
        coordinator.writeEtcFile("event-listener.properties", """
                event-listener.name=chiplet
                """);
        for (Node worker : List.of(worker1, worker2)) {
            worker.writeEtc(coordinatorPort, false, """
                    connector.name=chiplet
                    chiplet.fs-root=%s
                    chiplet.lease-dir=%s
                    chiplet.chiplets-per-node=1
                    chiplet.rescan-interval=100ms
                    """.formatted(snapshot, leases));
        }

        List<Process> servers = new ArrayList<>();
        try {
            for (Node node : List.of(coordinator, worker1, worker2)) {
                servers.add(node.start(home));
            }
            awaitStarted(servers.get(0), coordinatorPort, coordinator.log());
            Queries trino = new CliQueries(cli, coordinatorPort, coordinator.log(), temp);
            awaitActiveNodes(trino, servers, coordinator.log(), 3);

            // The coordinator placed nothing and says why, at INFO.
            String coordinatorLog = Files.readString(coordinator.log());
            assertThat(coordinatorLog).contains("Chiplet catalog chiplet on node coordinator: this node is a coordinator that runs no tasks "
                    + "(node-scheduler.include-coordinator=false): no chiplet lease, nothing pinned");

            // Session defaults from the workers' reports: what advise prints for their snapshot, two workers per host.
            String sized = awaitLogLine(coordinator.log(), "Chiplet session defaults on the topology the workers reported (2 workers:");
            assertThat(sized).contains("worker-1 on ").contains("worker-2 on ").contains("with 2 chiplets and 2 cores");
            Map<String, String> advised = AdviseRun.settings("--engine", "trino", "--fs-root", snapshot.toString(), "--workers-per-host", "2", "--hosts", "1");
            Map<String, String> session = new HashMap<>();
            for (List<String> row : trino.query("SHOW SESSION")) {
                session.put(row.get(0), row.get(1));
            }
            for (String property : List.of("task_concurrency", "min_hash_partition_count", "max_hash_partition_count")) {
                assertThat(session.get(property)).as("%s of a new session; coordinator log:%n%s", property, tail(coordinator.log()))
                        .isEqualTo(advised.get(property));
            }
            assertThat(coordinator.dataDir().resolve("chiplet").resolve(WorkerReportsFile.FILE_NAME))
                    .as("the workers' reports kept in the coordinator's data directory").isRegularFile();

            // Work on both workers: every topology row (two per worker) fans out on its worker to 400 x 500 rows (Trino's
            // sequence() stops at 10,000 entries), then a distributed aggregation; the same from VALUES, without the catalog.
            String fanOut = "CROSS JOIN UNNEST(sequence(1, 400)) a(x) CROSS JOIN UNNEST(sequence(1, 500)) b(y)";
            String fannedOut = "SELECT t.chiplet, count(*), sum(x * y) FROM chiplet.runtime.topology t " + fanOut + " GROUP BY t.chiplet ORDER BY 1";
            String withoutCatalog = "SELECT c, count(*), sum(x * y) FROM (VALUES 0, 0, 1, 1) v(c) " + fanOut + " GROUP BY c ORDER BY 1";
            String count = Long.toString(2L * 400 * 500);
            String sum = Long.toString(2L * (400L * 401 / 2) * (500L * 501 / 2));
            List<List<String>> expected = List.of(List.of("0", count, sum), List.of("1", count, sum));
            assertThat(trino.query(withoutCatalog)).isEqualTo(expected);
            assertThat(trino.query(fannedOut)).isEqualTo(expected);

            // Each worker's query threads on its own one chiplet, in /proc as in the placement table.
            long pid1 = serverPid(servers.get(1));
            long pid2 = serverPid(servers.get(2));
            Map<String, Set<String>> cpusByWorker = new HashMap<>();
            long deadline = System.nanoTime() + PLACEMENT_LIMIT.toNanos();
            while (System.nanoTime() < deadline) {
                trino.query(fannedOut);
                List<List<String>> placement = trino.query("SELECT node, tid, cpus FROM chiplet.runtime.placement");
                cpusByWorker = Map.of("worker-1", liveMasks(pid1, placement, "worker-1"), "worker-2", liveMasks(pid2, placement, "worker-2"));
                if (cpusByWorker.values().stream().allMatch(cpus -> cpus.size() == 1)) {
                    break;
                }
            }
            assertThat(cpusByWorker.get("worker-1")).as("masks of worker-1's placed threads in /proc").hasSize(1);
            assertThat(cpusByWorker.get("worker-2")).as("masks of worker-2's placed threads in /proc").hasSize(1);
            assertThat(Set.of(cpusByWorker.get("worker-1").iterator().next(), cpusByWorker.get("worker-2").iterator().next()))
                    .as("the two workers on distinct chiplets").containsExactlyInAnyOrder("0", "1");
            assertThat(trino.query("SELECT node, placing, coalesce(problem, 'none'), usable_cores FROM chiplet.runtime.status ORDER BY node"))
                    .as("only the nodes that run tasks answer, both placing")
                    .containsExactly(List.of("worker-1", "true", "none", "2"), List.of("worker-2", "true", "none", "2"));

            // The coordinator: no lease file open, no thread with a mask narrower than the process's.
            long coordinatorPid = serverPid(servers.get(0));
            assertThat(openFilesUnder(coordinatorPid, leases)).as("lease files the coordinator holds").isEmpty();
            assertThat(threadMasks(coordinatorPid)).as("the coordinator's thread masks").containsOnly(readStatus(Path.of("/proc/" + coordinatorPid + "/status"))
                    .orElseThrow().get("Cpus_allowed_list"));
            assertThat(openFilesUnder(pid1, leases)).as("lease files worker-1 holds").isNotEmpty();

            assertThat(trino.query("SELECT part, state FROM chiplet.runtime.coordinator")).as("the coordinator's parts")
                    .containsExactly(List.of("session-property-manager", "active"), List.of("event-listener", "active"), List.of("worker-reports", "active"),
                            List.of("measurement", "active"));
            assertThat(trino.query("SELECT count(*) FROM system.runtime.queries WHERE state = 'FAILED'")).as("failed queries, ours included")
                    .containsExactly(List.of("0"));
            for (Node node : List.of(coordinator, worker1, worker2)) {
                assertThat(Files.readString(node.log())).as("%s log", node.id())
                        .doesNotContain("has been called by io.chiplet")
                        .doesNotContain("Chiplet skew listener off")
                        .doesNotContain("Chiplet session property manager:")
                        .doesNotContain("Chiplet worker reports off");
            }
        }
        finally {
            stopAll(servers);
        }
        assertThat(servers).allSatisfy(server -> assertThat(server.isAlive()).isFalse());
    }

    /** The distinct masks, in {@code /proc}, of the worker's threads the placement table lists with the mask it gives. */
    private static Set<String> liveMasks(long pid, List<List<String>> placement, String node)
    {
        Set<String> masks = new HashSet<>();
        for (List<String> row : placement) {
            if (!row.get(0).equals(node) || row.get(2).isEmpty()) {
                continue;
            }
            readStatus(Path.of("/proc/" + pid + "/task/" + row.get(1) + "/status"))
                    .map(status -> status.get("Cpus_allowed_list"))
                    .ifPresent(masks::add);
        }
        return masks;
    }

    private static Set<String> threadMasks(long pid)
            throws IOException
    {
        Set<String> masks = new HashSet<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                readStatus(task.resolve("status")).map(status -> status.get("Cpus_allowed_list")).ifPresent(masks::add);
            }
        }
        return masks;
    }

    private static List<Path> openFilesUnder(long pid, Path directory)
            throws IOException
    {
        List<Path> open = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (target.startsWith(directory)) {
                        open.add(target);
                    }
                }
                catch (IOException e) {
                    // Closed while listed.
                }
            }
        }
        return open;
    }
}
