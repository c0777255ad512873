package io.chiplet.trino.connector;

import io.chiplet.trino.cluster.WorkerReport;
import io.chiplet.trino.cluster.WorkerReports;
import io.chiplet.trino.guard.CoordinatorParts;
import io.trino.spi.HostAddress;
import io.trino.spi.Node;
import io.trino.spi.NodeManager;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkerReportCollectorTest
{
    @Test
    void asksWhenTheWorkersChangeOrTheAnswerIsOldAndKeepsTheirReports()
            throws Exception
    {
        AtomicReference<Set<Node>> workers = new AtomicReference<>(Set.of(node("w1", "host-a"), node("w2", "host-a")));
        List<String> asked = new ArrayList<>();
        WorkerReportCollector.Statements statements = sql -> {
            asked.add(sql);
            // A worker whose catalog could not read its topology answers without figures: no report from it.
            return List.of(List.of("w1", "2", "2"), Arrays.asList("w2", null, null), List.of("gone", "4", "4"));
        };
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-26T12:00:00Z"));
        Clock clock = new Clock()
        {
            @Override
            public ZoneOffset getZone()
            {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone)
            {
                return this;
            }

            @Override
            public Instant instant()
            {
                return now.get();
            }
        };
        WorkerReports reports = new WorkerReports();
        CoordinatorParts parts = new CoordinatorParts();
        WorkerReportCollector collector = new WorkerReportCollector("chiplet", manager(workers), statements, reports, parts, clock);

        // Nobody sizes from the reports yet: nobody is asked.
        assertThat(collector.collect()).isFalse();
        assertThat(asked).isEmpty();
        reports.want();

        assertThat(collector.collect()).isTrue();
        assertThat(asked).containsExactly("SELECT node, usable_chiplets, usable_cores FROM \"chiplet\".runtime.status");
        assertThat(reports.current().reports()).containsExactly(new WorkerReport("w1", "host-a", 2, 2));
        assertThat(parts.current()).contains(new CoordinatorParts.PartState(CoordinatorParts.WORKER_REPORTS, CoordinatorParts.ACTIVE,
                "catalog chiplet: 1 of 2 nodes that run tasks reported at 2026-11-26T12:00:00Z"));

        // Same workers, shortly after: not asked again.
        now.set(now.get().plusSeconds(30));
        assertThat(collector.collect()).isFalse();
        // A third worker joined: asked at once.
        workers.set(Set.of(node("w1", "host-a"), node("w2", "host-a"), node("w3", "host-b")));
        assertThat(collector.collect()).isTrue();
        // Old answers are refreshed.
        now.set(now.get().plus(WorkerReportCollector.REFRESH));
        assertThat(collector.collect()).isTrue();
        assertThat(asked).hasSize(3);

        // No node runs tasks yet (a coordinator alone): nothing to ask.
        workers.set(Set.of());
        assertThat(collector.collect()).isFalse();
        collector.close();
    }

    @Test
    void clientProtocolPagesAreReadUntilTheQueryIsDone()
            throws IOException
    {
        List<List<String>> rows = new ArrayList<>();
        assertThat(LoopbackStatements.readPage("""
                {"id":"q1","nextUri":"http://127.0.0.1:8080/v1/statement/executing/q1/x/1","columns":[{"name":"node","type":"varchar"}],
                 "data":[["w1",2,2],["w2",null,null]],"stats":{"state":"RUNNING","nodes":2}}
                """, rows)).contains("http://127.0.0.1:8080/v1/statement/executing/q1/x/1");
        assertThat(LoopbackStatements.readPage("{\"id\":\"q1\",\"stats\":{\"state\":\"FINISHED\"}}", rows)).isEmpty();
        assertThat(rows).containsExactly(List.of("w1", "2", "2"), Arrays.asList("w2", null, null));

        assertThatThrownBy(() -> LoopbackStatements.readPage("{\"id\":\"q2\",\"error\":{\"message\":\"Catalog 'chiplet' not found\",\"errorCode\":44}}", rows))
                .isInstanceOf(IOException.class)
                .hasMessage("the chiplet catalog's status query failed: Catalog 'chiplet' not found");
        assertThatThrownBy(() -> LoopbackStatements.readPage("<html>401</html>", rows)).isInstanceOf(IOException.class);
    }

    private static NodeManager manager(AtomicReference<Set<Node>> workers)
    {
        return new NodeManager()
        {
            @Override
            public Set<Node> getAllNodes()
            {
                return workers.get();
            }

            @Override
            public Set<Node> getWorkerNodes()
            {
                return workers.get();
            }

            @Override
            public Node getCurrentNode()
            {
                return node("coordinator", "host-c");
            }

            @Override
            public String getEnvironment()
            {
                return "test";
            }
        };
    }

    private static Node node(String id, String host)
    {
        return new Node()
        {
            @Override
            public String getHost()
            {
                return host;
            }

            @Override
            public HostAddress getHostAndPort()
            {
                return HostAddress.fromParts(host, 8080);
            }

            @Override
            public String getNodeIdentifier()
            {
                return id;
            }

            @Override
            public String getVersion()
            {
                return "476";
            }

            @Override
            public boolean isCoordinator()
            {
                return id.equals("coordinator");
            }
        };
    }
}
