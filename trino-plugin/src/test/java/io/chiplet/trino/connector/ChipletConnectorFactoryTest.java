package io.chiplet.trino.connector;

import io.chiplet.trino.LogCapture;
import io.chiplet.trino.guard.SpiMembers;
import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.HostAddress;
import io.trino.spi.Node;
import io.trino.spi.NodeManager;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.RecordSet;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The catalog comes up whatever fails while creating it: a member the running Trino lacks, a class the JVM cannot
 * link, a bug of ours. It then places nothing and its {@code status} row names the cause.
 */
class ChipletConnectorFactoryTest
{
    private static final Map<String, String> SETTINGS = Map.of("chiplet.enabled", "false");

    @Test
    void placementPartThrowingNoSuchMethodErrorLeavesTheCatalogUpNotPlacing()
    {
        ChipletConnectorFactory factory = ChipletConnectorFactory.forTests(new SkewHistory(8), Optional.empty(), (catalog, node, properties, role) -> {
            throw new NoSuchMethodError("'io.trino.spi.Node io.trino.spi.connector.ConnectorContext.getCurrentNode()'");
        });
        try (LogCapture log = LogCapture.of("io.chiplet.trino")) {
            Connector connector = factory.create("chiplet", SETTINGS, context(Optional.of(manager("node-1"))));

            String cause = "the chiplet catalog failed to start: java.lang.NoSuchMethodError: 'io.trino.spi.Node io.trino.spi.connector.ConnectorContext.getCurrentNode()'";
            assertThat(statusRows(connector)).containsExactly(List.of("node-1", "chiplet", false, "", "", 0L, cause, "", 0L, "", ""));
            assertThat(rows(connector, RuntimeTable.PLACEMENT)).isEmpty();
            assertThat(rows(connector, RuntimeTable.TOPOLOGY)).isEmpty();
            assertThat(log.warnings()).containsExactly("Chiplet catalog chiplet on node node-1: no thread placement, Trino runs as without it: " + cause);
            connector.shutdown();
        }
    }

    @Test
    void anyThrowableOfOursIsAbsorbedButTheJvmRunningOutOfMemoryIsNot()
    {
        ChipletConnectorFactory assertionFails = ChipletConnectorFactory.forTests(new SkewHistory(8), Optional.empty(), (catalog, node, properties, role) -> {
            throw new AssertionError("a bug of ours");
        });
        try (LogCapture log = LogCapture.of("io.chiplet.trino")) {
            Connector connector = assertionFails.create("chiplet", SETTINGS, context(Optional.of(manager("node-1"))));
            assertThat(statusRows(connector)).singleElement()
                    .satisfies(row -> assertThat(row.get(6)).isEqualTo("the chiplet catalog failed to start: java.lang.AssertionError: a bug of ours"));
            assertThat(log.warnings()).hasSize(1);
        }

        ChipletConnectorFactory outOfMemory = ChipletConnectorFactory.forTests(new SkewHistory(8), Optional.empty(), (catalog, node, properties, role) -> {
            throw new OutOfMemoryError("Java heap space");
        });
        assertThatThrownBy(() -> outOfMemory.create("chiplet", SETTINGS, context(Optional.of(manager("node-1")))))
                .isInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void withoutTheNewerAccessorTheNodeComesFromTheNodeManagerAsInTrino476()
    {
        AtomicReference<String> startedOn = new AtomicReference<>();
        ChipletConnectorFactory factory = ChipletConnectorFactory.forTests(new SkewHistory(8), Optional.empty(), (catalog, node, properties, role) -> {
            startedOn.set(node);
            return NodeRuntime.start(catalog, node, properties, role);
        });
        Connector connector = factory.create("chiplet", SETTINGS, context(Optional.of(manager("node-476"))));

        assertThat(startedOn).hasValue("node-476");
        assertThat(statusRows(connector)).singleElement().satisfies(row -> {
            assertThat(row.get(0)).isEqualTo("node-476");
            assertThat(row.get(6)).isEqualTo("chiplet.enabled=false");
        });
        connector.shutdown();
    }

    @Test
    void theNewerAccessorIsUsedWhereTheRunningSpiHasIt()
    {
        // The tests run on the newest SPI, whose ConnectorContext has getCurrentNode(); the plugin compiles against 476's.
        assertThat(ChipletConnectorFactory.CONTEXT_CURRENT_NODE).isPresent();
        AtomicReference<String> startedOn = new AtomicReference<>();
        ChipletConnectorFactory factory = ChipletConnectorFactory.forTests(new SkewHistory(8), ChipletConnectorFactory.CONTEXT_CURRENT_NODE,
                (catalog, node, properties, role) -> {
                    startedOn.set(node);
                    return NodeRuntime.start(catalog, node, properties, role);
                });
        // No node manager at all, as an SPI that dropped it: the context's own accessor names the node.
        ConnectorContext context = new ConnectorContext()
        {
            // Overrides the newest SPI's ConnectorContext.getCurrentNode() at run time; 476 has no such method to mark.
            @SuppressWarnings("unused")
            public Node getCurrentNode()
            {
                return node("node-483");
            }

            @Override
            public NodeManager getNodeManager()
            {
                throw new UnsupportedOperationException();
            }
        };
        Connector connector = factory.create("chiplet", SETTINGS, context);

        assertThat(startedOn).hasValue("node-483");
        // Without a node manager each per-node table is one split any node answers.
        assertThat(splits(connector, RuntimeTable.STATUS)).singleElement().satisfies(split -> assertThat(split.isRemotelyAccessible()).isTrue());
        assertThat(statusRows(connector)).singleElement().satisfies(row -> assertThat(row.get(0)).isEqualTo("node-483"));
        connector.shutdown();
    }

    @Test
    void neitherNodeNorNodeManagerStillGivesACatalogThatSaysWhy()
    {
        ChipletConnectorFactory factory = ChipletConnectorFactory.forTests(new SkewHistory(8), ChipletConnectorFactory.CONTEXT_CURRENT_NODE, NodeRuntime::start);
        try (LogCapture log = LogCapture.of("io.chiplet.trino")) {
            Connector connector = factory.create("chiplet", SETTINGS, context(Optional.empty()));

            assertThat(statusRows(connector)).singleElement().satisfies(row -> {
                assertThat(row.get(0)).isEqualTo("unknown");
                assertThat(row.get(2)).isEqualTo(false);
                assertThat((String) row.get(6)).startsWith("the chiplet catalog failed to start: java.lang.UnsupportedOperationException");
            });
            assertThat(log.warnings()).hasSize(1);
        }
    }

    @Test
    void trino476sContextHasNoCurrentNodeAccessor()
            throws Exception
    {
        Path oldest = Path.of(System.getProperty("chiplet.trino.oldest.spi", "set by the build"));
        assertThat(oldest).as("trino-spi " + System.getProperty("chiplet.trino.oldest.version")).isRegularFile();
        try (URLClassLoader spi476 = new URLClassLoader(new URL[] {oldest.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Class<?> context = Class.forName(ConnectorContext.class.getName(), false, spi476);
            Class<?> node = Class.forName(Node.class.getName(), false, spi476);
            assertThat(SpiMembers.instanceMethod(context, "getCurrentNode", MethodType.methodType(node))).isEmpty();
            assertThat(SpiMembers.instanceMethod(context, "getNodeManager", MethodType.methodType(Class.forName(NodeManager.class.getName(), false, spi476))))
                    .isPresent();
        }
    }

    @Test
    void anUnwritableReportDirectoryIsWarnedAboutWhenMeasuringStartsAndTheBeansAreThere(@org.junit.jupiter.api.io.TempDir Path temp)
            throws Exception
    {
        Path file = java.nio.file.Files.writeString(temp.resolve("taken"), "a file");
        ChipletConnectorFactory factory = ChipletConnectorFactory.forTests(new SkewHistory(8), Optional.empty(),
                (catalog, node, properties, role) -> new FailedCatalog(catalog, node, "test: nothing placed"));
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName measurement = new javax.management.ObjectName("io.chiplet.trino:type=Measurement,name=chiplet_measuring");
        try (LogCapture log = LogCapture.of("io.chiplet.trino")) {
            Connector connector = factory.create("chiplet_measuring", Map.of("chiplet.measure.enabled", "true", "chiplet.measure.report-dir", file.resolve("reports").toString()),
                    context(Optional.of(manager("node-1"))));
            try {
                assertThat(log.warnings()).containsExactly("Chiplet catalog chiplet_measuring on the coordinator cannot write its measurement report (chiplet.measure.report-dir): "
                        + file.resolve("reports") + " cannot be created: " + file + " is a file, not a directory; the figures are still in chiplet_measuring.runtime.measurement and JMX");
                assertThat(server.isRegistered(measurement)).isTrue();
                assertThat(server.getAttribute(measurement, "Placing")).isEqualTo(true);
                assertThat(server.isRegistered(new javax.management.ObjectName("io.chiplet.trino:type=Placement,name=chiplet_measuring"))).isTrue();
            }
            finally {
                connector.shutdown();
            }
        }
        assertThat(server.isRegistered(measurement)).isFalse();
    }

    private static ConnectorContext context(Optional<NodeManager> nodeManager)
    {
        return new ConnectorContext()
        {
            @Override
            public NodeManager getNodeManager()
            {
                return nodeManager.orElseThrow(UnsupportedOperationException::new);
            }
        };
    }

    private static NodeManager manager(String current)
    {
        Node node = node(current);
        return new NodeManager()
        {
            @Override
            public Set<Node> getAllNodes()
            {
                return Set.of(node);
            }

            @Override
            public Set<Node> getWorkerNodes()
            {
                return Set.of(node);
            }

            @Override
            public Node getCurrentNode()
            {
                return node;
            }

            // Abstract in SPI 476, gone in 483.
            @Override
            public String getEnvironment()
            {
                return "test";
            }
        };
    }

    private static Node node(String id)
    {
        return new Node()
        {
            @Override
            public String getHost()
            {
                return "localhost";
            }

            @Override
            public HostAddress getHostAndPort()
            {
                return HostAddress.fromParts("localhost", 8080);
            }

            @Override
            public String getNodeIdentifier()
            {
                return id;
            }

            @Override
            public String getVersion()
            {
                return "test";
            }

            @Override
            public boolean isCoordinator()
            {
                return true;
            }
        };
    }

    private static List<ChipletSplit> splits(Connector connector, RuntimeTable table)
    {
        return ((ChipletSplitManager) connector.getSplitManager()).splits(table);
    }

    /** Every row of the table as this node answers it, NULL cells as "" (a cursor's view). */
    private static List<List<Object>> rows(Connector connector, RuntimeTable table)
    {
        List<ColumnHandle> columns = IntStream.range(0, table.columns().size())
                .mapToObj(index -> (ColumnHandle) new ChipletColumnHandle(table.columns().get(index).getName(), index))
                .toList();
        List<List<Object>> rows = new ArrayList<>();
        for (ConnectorSplit split : splits(connector, table)) {
            RecordSet records = connector.getRecordSetProvider().getRecordSet(ChipletTransactionHandle.INSTANCE, null, split, new ChipletTableHandle(table), columns);
            RecordCursor cursor = records.cursor();
            while (cursor.advanceNextPosition()) {
                List<Object> row = new ArrayList<>();
                for (int i = 0; i < columns.size(); i++) {
                    row.add(cursor.isNull(i) ? "" : value(cursor, i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static Object value(RecordCursor cursor, int column)
    {
        Class<?> javaType = cursor.getType(column).getJavaType();
        if (javaType == boolean.class) {
            return cursor.getBoolean(column);
        }
        if (javaType == long.class) {
            return cursor.getLong(column);
        }
        if (javaType == double.class) {
            return cursor.getDouble(column);
        }
        return cursor.getSlice(column).toStringUtf8();
    }

    private static List<List<Object>> statusRows(Connector connector)
    {
        return rows(connector, RuntimeTable.STATUS);
    }
}
