package io.chiplet.trino;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chiplet.measure.EffectInjector;
import io.chiplet.trino.TrinoTarballCluster.Node;
import io.chiplet.trino.TrinoTarballCluster.Queries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.chiplet.trino.TrinoTarballCluster.awaitActiveNodes;
import static io.chiplet.trino.TrinoTarballCluster.awaitLogLine;
import static io.chiplet.trino.TrinoTarballCluster.awaitStarted;
import static io.chiplet.trino.TrinoTarballCluster.freePort;
import static io.chiplet.trino.TrinoTarballCluster.installedServer;
import static io.chiplet.trino.TrinoTarballCluster.readStatus;
import static io.chiplet.trino.TrinoTarballCluster.serverPid;
import static io.chiplet.trino.TrinoTarballCluster.stopAll;
import static io.chiplet.trino.TrinoTarballCluster.tail;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Issue 23 on the real thing: a Trino 476 coordinator that runs no tasks and one worker from the release's server
 * tarball, measuring placement in place with short switchback windows (2 s, half of them control). The test-only
 * effect injector ({@code -Dchiplet.test.effectInjector=true} on both JVMs, {@code inject-time-ratio=1.25} in the
 * worker's catalog) makes the work of {@code runtime.test_work} take 1.25 times its CPU time in placed windows. First,
 * with no effect (issue 32): four distinct query shapes run side by side until the guard's first look is due; placement
 * goes on and the overall interval, cluster-robust over windows across the shapes, holds 1. Then, with the injected
 * harm: the work's figure in the coordinator's report (JSON) holds the injected time ratio 1.25 in its interval; the guard stops
 * placement, says so once at WARN, and the worker's query threads get the process's own mask back; the report files
 * and the {@code runtime.measurement} table are there; every result equals the one computed without the plugin.
 */
class TrinoMeasureIT
{
    private static final String ENVIRONMENT = "chiplet_measure_it";
    private static final String EFFECT_INJECTOR = "-Dchiplet.test.effectInjector=true";
    private static final Duration MEASURE_LIMIT = Duration.ofSeconds(300); // ends as soon as the guard stops; room for an overloaded host
    private static final double INJECTED = 1.25;
    private static final String WORK = "SELECT count(*), sum(value % 1000003) FROM chiplet.runtime.test_work";
    private static final String FAN_OUT = "SELECT c, count(*), sum(x * y) FROM (VALUES 0, 1) v(c) CROSS JOIN UNNEST(sequence(1, 200)) a(x) "
            + "CROSS JOIN UNNEST(sequence(1, 300)) b(y) GROUP BY c ORDER BY 1";
    /** Query shapes with no injected effect (the injector stretches {@code runtime.test_work} only), run side by side. */
    private static final List<String> NO_EFFECT_SHAPES = List.of(FAN_OUT,
            "SELECT count(*), max(x + y) FROM UNNEST(sequence(1, 400)) a(x) CROSS JOIN UNNEST(sequence(1, 250)) b(y) WHERE (x * y) % 7 = 0",
            "SELECT x % 10, count(DISTINCT x * y) FROM UNNEST(sequence(1, 300)) a(x) CROSS JOIN UNNEST(sequence(1, 200)) b(y) GROUP BY 1 ORDER BY 1",
            "SELECT sum(length(to_hex(md5(to_utf8(CAST(x * y AS varchar)))))) FROM UNNEST(sequence(1, 200)) a(x) CROSS JOIN UNNEST(sequence(1, 150)) b(y)");

    @Test
    void recoversAnInjectedHarmAndTheGuardStopsPlacement(@TempDir Path temp)
            throws Exception
    {
        Path home = installedServer();

        Path leases = temp.resolve("leases");
        Path reports = temp.resolve("reports");
        int coordinatorPort = freePort();
        Node coordinator = new Node(ENVIRONMENT, "coordinator", temp.resolve("coordinator"), coordinatorPort);
        Node worker = new Node(ENVIRONMENT, "worker-1", temp.resolve("worker-1"), freePort());
        coordinator.writeEtc(coordinatorPort, true, """
                connector.name=chiplet
                chiplet.lease-dir=%s
                chiplet.measure.window=2s
                chiplet.measure.control-share=0.5
                chiplet.measure.seed=23
                chiplet.measure.report-dir=%s
                """.formatted(leases, reports), EFFECT_INJECTOR);
        coordinator.writeEtcFile("event-listener.properties", """
                event-listener.name=chiplet
                """);
        // The live machine: one L3, so one chiplet of both CPUs. Placement then narrows no mask and has no effect of its
        // own, and the injected one is the only effect to recover (on the two-chiplet snapshot, where placement pins
        // each thread to one CPU, the estimate also carried placement's own effect on this VM, about 1 % faster).
        worker.writeEtc(coordinatorPort, false, """
                connector.name=chiplet
                chiplet.lease-dir=%s
                chiplet.rescan-interval=100ms
                chiplet.measure.test.inject-time-ratio=%s
                """.formatted(leases, INJECTED), EFFECT_INJECTOR);

        List<Process> servers = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(NO_EFFECT_SHAPES.size());
        try {
            servers.add(coordinator.start(home));
            servers.add(worker.start(home));
            awaitStarted(servers.get(0), coordinatorPort, coordinator.log());
            Client trino = new Client(coordinatorPort, coordinator.log());
            awaitActiveNodes(trino, servers, coordinator.log(), 2);
            long workerPid = serverPid(servers.get(1));
            String processMask = readStatus(Path.of("/proc/" + workerPid + "/status")).orElseThrow().get("Cpus_allowed_list");

            String injectorLine = awaitLogLine(worker.log(), "Chiplet catalog chiplet on node worker-1: TEST ONLY effect injector active");
            assertThat(injectorLine).contains("placed work takes 1.25 times control work");
            List<List<String>> expectedWork = List.of(List.of(Long.toString(EffectInjector.ROWS),
                    Long.toString(LongStream.range(0, EffectInjector.ROWS).map(row -> EffectInjector.expectedRow(row) % 1000003).sum())));
            List<List<String>> expectedFanOut = List.of(List.of("0", "60000", Long.toString(200L * 201 / 2 * (300L * 301 / 2))),
                    List.of("1", "60000", Long.toString(200L * 201 / 2 * (300L * 301 / 2))));
            assertThat(trino.query(FAN_OUT)).as("placed, before measuring starts").isEqualTo(expectedFanOut);
            awaitLogLine(worker.log(), "Chiplet placement on worker-1: follows the coordinator's measurement schedule (windows of 2000 ms, seed 23)");

            noEffectWithSeveralShapesKeepsPlacing(trino, clients);

            // Two clients run the work until the guard stops placement; every result must be the one without the plugin.
            AtomicBoolean stopped = new AtomicBoolean();
            ConcurrentLinkedQueue<List<List<String>>> results = new ConcurrentLinkedQueue<>();
            long deadline = System.nanoTime() + MEASURE_LIMIT.toNanos();
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                running.add(clients.submit(() -> {
                    while (!stopped.get() && System.nanoTime() < deadline) {
                        results.add(trino.query(WORK));
                    }
                    return null;
                }));
            }
            String guardLine = null;
            while (System.nanoTime() < deadline && guardLine == null) {
                guardLine = Files.readAllLines(coordinator.log()).stream().filter(line -> line.contains("Chiplet placement stopped by the guard")).findFirst()
                        .orElse(null);
                Thread.sleep(1000);
            }
            stopped.set(true);
            for (Future<?> client : running) {
                client.get();
            }
            assertThat(guardLine).as("the guard's WARN line; measurement %s; coordinator log:%n%s", trino.query("SELECT * FROM chiplet.runtime.measurement"),
                    tail(coordinator.log())).isNotNull();
            assertThat(guardLine).contains("WARN").contains("chiplet.guard=auto").contains("placed slower").contains(" control windows");
            assertThat(results).as("every result of the work, placed and control").allSatisfy(result -> assertThat(result).isEqualTo(expectedWork));

            // The estimate that stopped placement: the work's own figure holds the injected time ratio (the overall one
            // also holds the no-effect shapes of the first part, weighed by their CPU time).
            JsonNode report = new ObjectMapper().readTree(reports.resolve("chiplet-measure-trino-chiplet.json").toFile());
            JsonNode estimate = report.get("estimate");
            assertThat(estimate.get("enough").asBoolean()).isTrue();
            System.out.println("TrinoMeasureIT: " + report.get("summary").asText());
            Set<String> workStrata = trino.query("SELECT query_shape FROM chiplet.runtime.measurement WHERE query_text LIKE 'SELECT count(*), sum(value %'")
                    .stream().map(List::getFirst).collect(Collectors.toSet());
            JsonNode work = null;
            for (JsonNode figure : estimate.get("byStratum")) {
                if (workStrata.contains(figure.get("stratum").asText()) && (work == null || figure.get("control").asInt() > work.get("control").asInt())) {
                    work = figure;
                }
            }
            assertThat(work).as("the work's figure in %s", report).isNotNull();
            System.out.println("TrinoMeasureIT: the work's figure " + work);
            // Over windows, the unit randomised: the interval holds the windows' shared load on this busy machine.
            assertThat(work.get("speedUpLow").asDouble()).as("report %s", report).isLessThanOrEqualTo(1 / INJECTED);
            assertThat(work.get("speedUpHigh").asDouble()).as("report %s", report).isGreaterThanOrEqualTo(1 / INJECTED);
            assertThat(work.get("speedUp").asDouble()).as("report %s", report).isBetween(1 / INJECTED / 1.05, 1 / INJECTED * 1.05);
            assertThat(report.get("guard").get("placing").asBoolean()).isFalse();
            assertThat(report.get("guard").get("stoppedAtLook").asInt()).as("the first look, in the part without an effect, kept placing").isPositive();
            assertThat(report.get("unit").asText()).isEqualTo("window");
            assertThat(Files.readString(reports.resolve("chiplet-measure-trino-chiplet.html"))).contains("<svg");

            // The worker follows the stop: its query threads run on the process's own mask, as without the plugin.
            String stopOnWorker = awaitLogLine(worker.log(), "Chiplet placement on worker-1: the coordinator's guard stopped placement");
            assertThat(stopOnWorker).contains("query threads run unplaced");
            awaitWindowsRow(trino, List.of("worker-1", "control", "false"));
            for (int i = 0; i < 3; i++) {
                assertThat(trino.query(WORK)).isEqualTo(expectedWork);
                assertThat(trino.query(FAN_OUT)).as("unplaced, after the stop").isEqualTo(expectedFanOut);
            }
            assertThat(runnerMasks(workerPid)).as("the worker's SplitRunner threads' masks after the stop").isNotEmpty().containsOnly(processMask);
            assertThat(trino.query("SELECT count(*) FROM chiplet.runtime.placement")).containsExactly(List.of("0"));

            List<List<String>> table = trino.query("SELECT query_shape, placed, control, verdict, placing FROM chiplet.runtime.measurement");
            assertThat(table.getFirst()).as("the overall row").containsSequence("overall").endsWith("placed slower", "false");
            assertThat(table.stream().filter(row -> !row.getFirst().equals("overall") && Integer.parseInt(row.get(1)) >= 20 && Integer.parseInt(row.get(2)) >= 20))
                    .as("the work's shape, compared").isNotEmpty();
            assertThat(Files.readString(coordinator.log())).contains("Chiplet placement measured in place for query shape");
            assertThat(trino.query("SELECT count(*) FROM system.runtime.queries WHERE state = 'FAILED'")).as("failed queries, ours included")
                    .containsExactly(List.of("0"));
        }
        finally {
            clients.shutdownNow();
            stopAll(servers);
        }
        assertThat(servers).allSatisfy(server -> assertThat(server.isAlive()).isFalse());
    }

    /**
     * Several query shapes, none with an injected effect, run side by side until one of them has 20 windows of each arm
     * (so the guard's first look, at 20 windows of each arm over all shapes, is due): the guard keeps placing and the
     * interval, over windows across the shapes, holds 1.
     */
    private static void noEffectWithSeveralShapesKeepsPlacing(Client trino, ExecutorService clients)
            throws Exception
    {
        AtomicBoolean done = new AtomicBoolean();
        long deadline = System.nanoTime() + MEASURE_LIMIT.toNanos();
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < NO_EFFECT_SHAPES.size(); i++) {
            int first = i;
            running.add(clients.submit(() -> {
                for (int next = first; !done.get() && System.nanoTime() < deadline; next++) {
                    trino.query(NO_EFFECT_SHAPES.get(next % NO_EFFECT_SHAPES.size()));
                }
                return null;
            }));
        }
        String columns = "SELECT query_shape, placed, control, speed_up, speed_up_low, speed_up_high, verdict, CAST(placing AS varchar) FROM chiplet.runtime.measurement";
        List<List<String>> rows = List.of();
        while (System.nanoTime() < deadline) {
            // Reading the table brings the estimate up to date and lets the guard look.
            rows = trino.query(columns);
            if (rows.stream().skip(1).anyMatch(row -> Long.parseLong(row.get(1)) >= 20 && Long.parseLong(row.get(2)) >= 20)) {
                break;
            }
            Thread.sleep(1000);
        }
        done.set(true);
        for (Future<?> client : running) {
            client.get();
        }
        rows = trino.query(columns);
        System.out.println("TrinoMeasureIT, no effect, " + NO_EFFECT_SHAPES.size() + " shapes: " + rows);
        List<String> overall = rows.getFirst();
        assertThat(rows.stream().skip(1).filter(row -> Long.parseLong(row.get(1)) >= 20 && Long.parseLong(row.get(2)) >= 20))
                .as("a shape with 20 windows of each arm: %s", rows).isNotEmpty();
        assertThat(rows.stream().skip(1).map(row -> row.getFirst().substring(0, row.getFirst().indexOf(','))).distinct().count())
                .as("shapes compared (this test's reading of runtime.measurement is one more): %s", rows).isGreaterThanOrEqualTo(NO_EFFECT_SHAPES.size());
        assertThat(overall.getFirst()).isEqualTo("overall");
        assertThat(overall.get(7)).as("placing, after the guard's first look: %s", rows).isEqualTo("true");
        assertThat(overall.get(6)).as("verdict: %s", rows).isNotIn("placed slower", "placed faster", "not enough evidence yet");
        assertThat(Double.parseDouble(overall.get(4))).as("speed-up low").isLessThanOrEqualTo(1);
        assertThat(Double.parseDouble(overall.get(5))).as("speed-up high").isGreaterThanOrEqualTo(1);
    }

    private static void awaitWindowsRow(Client trino, List<String> expected)
            throws Exception
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<List<String>> rows = List.of();
        while (System.nanoTime() < deadline) {
            rows = trino.query("SELECT node, arm, CAST(placing AS varchar) FROM chiplet.runtime.windows");
            if (rows.equals(List.of(expected))) {
                return;
            }
            Thread.sleep(500);
        }
        fail("runtime.windows did not become %s: %s", expected, rows);
    }

    private static Set<String> runnerMasks(long pid)
            throws IOException
    {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.map(task -> readStatus(task.resolve("status")))
                    .flatMap(java.util.Optional::stream)
                    .filter(status -> status.getOrDefault("Name", "").startsWith("SplitRunner"))
                    .map(status -> status.get("Cpus_allowed_list"))
                    .collect(Collectors.toSet());
        }
    }

    /** Trino's client protocol over HTTP, no JVM per statement: many short statements in a bounded test. */
    private record Client(int port, Path serverLog)
            implements Queries
    {
        private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        private static final ObjectMapper JSON = new ObjectMapper();

        @Override
        public List<List<String>> query(String sql)
                throws IOException, InterruptedException
        {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/statement"))
                    .timeout(Duration.ofSeconds(30)).header("X-Trino-User", "measure-it").header("X-Trino-Source", "measure-it")
                    .POST(HttpRequest.BodyPublishers.ofString(sql)).build();
            List<List<String>> rows = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (true) {
                HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as("%s: %s", sql, response.body()).isEqualTo(200);
                JsonNode page = JSON.readTree(response.body());
                if (page.has("error")) {
                    fail("%s failed: %s%nserver log:%n%s", sql, page.get("error").get("message").asText(), tail(serverLog));
                }
                if (page.has("data")) {
                    for (JsonNode row : page.get("data")) {
                        List<String> cells = new ArrayList<>();
                        row.forEach(cell -> cells.add(cell.isNull() ? null : cell.asText()));
                        rows.add(cells);
                    }
                }
                if (!page.has("nextUri")) {
                    return rows;
                }
                if (System.nanoTime() > deadline) {
                    fail("%s did not finish within a minute", sql);
                }
                request = HttpRequest.newBuilder(URI.create(page.get("nextUri").asText())).timeout(Duration.ofSeconds(30))
                        .header("X-Trino-User", "measure-it").GET().build();
            }
        }
    }
}
