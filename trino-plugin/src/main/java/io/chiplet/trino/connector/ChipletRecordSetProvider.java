package io.chiplet.trino.connector;

import io.chiplet.measure.Arm;
import io.chiplet.measure.EffectInjector;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CoreKind;
import io.chiplet.topology.Topology;
import io.chiplet.trino.measure.PluginThreads;
import io.chiplet.trino.measure.WindowSchedule;
import io.chiplet.trino.placement.AgentSnapshot;
import io.chiplet.trino.skew.CompletedStageSkew;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorRecordSetProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/** Answers a split on the node it was addressed to, from that node's {@link NodeRuntime}. */
final class ChipletRecordSetProvider
        implements ConnectorRecordSetProvider
{
    private final CatalogState state;

    ChipletRecordSetProvider(CatalogState state)
    {
        this.state = requireNonNull(state, "state is null");
    }

    @Override
    public RecordSet getRecordSet(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorSplit split, ConnectorTableHandle table,
            List<? extends ColumnHandle> columns)
    {
        ChipletSplit chipletSplit = (ChipletSplit) split;
        chipletSplit.getSchedule().ifPresent(state::follow);
        List<List<Object>> rows;
        if (chipletSplit.getTable() == RuntimeTable.COORDINATOR) {
            rows = chipletSplit.getPartRows().stream().map(part -> row(part.part(), part.state(), part.detail())).toList();
        }
        else if (chipletSplit.getTable() == RuntimeTable.MEASUREMENT) {
            rows = chipletSplit.getMeasurementRows();
        }
        else if (chipletSplit.getTable() == RuntimeTable.WINDOWS && state instanceof FailedCatalog) {
            // Places nothing, so it follows whatever schedule trivially.
            rows = List.of(windowsRow(state.node(), chipletSplit.getSchedule(), Arm.PLACED));
        }
        else {
            rows = state.rows(chipletSplit.getTable(), chipletSplit.getSkew());
        }
        int[] indexes = columns.stream().mapToInt(column -> ((ChipletColumnHandle) column).index()).toArray();
        List<ColumnMetadata> all = chipletSplit.getTable().columns();
        List<List<Object>> projected = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            // InMemoryRecordSet takes null cells; List.of does not.
            projected.add(Arrays.asList(Arrays.stream(indexes).mapToObj(row::get).toArray()));
        }
        return new InMemoryRecordSet(Arrays.stream(indexes).mapToObj(i -> all.get(i).getType()).toList(), projected);
    }

    /** Every column of {@code table}'s rows on a node whose catalog started, in column order. */
    static List<List<Object>> rows(RuntimeTable table, NodeRuntime runtime, List<CompletedStageSkew> skew)
    {
        String node = runtime.node();
        AgentSnapshot placement = runtime.placement();
        return switch (table) {
            case TOPOLOGY -> runtime.topology().map(topology -> topologyRows(node, topology)).orElse(List.of());
            case PLACEMENT -> placement.threads().stream()
                    .map(thread -> row(node, thread.name(), (long) thread.tid(), thread.chiplet().isPresent() ? (long) thread.chiplet().getAsInt() : null,
                            thread.cpus().toList()))
                    .toList();
            case ADAPTATION -> placement.adaptation().stream()
                    .map(thread -> row(node, (long) thread.tid(), (long) thread.spread(), thread.remoteAccessRate().orElse(null), thread.signalSource()))
                    .toList();
            case SKEW -> skewRows(skew);
            case MEASUREMENT -> List.of();
            case WINDOWS -> List.of(windowsRow(node, runtime.schedule(), runtime.armNow()));
            case TEST_WORK -> testWorkRows(node, runtime.injector(), runtime::armNow);
            // Carried in the split, answered before the node's state is asked.
            case COORDINATOR -> List.of();
            case STATUS -> List.of(row(node, runtime.catalog(), runtime.problem().isEmpty() && runtime.governingCatalog().isPresent(),
                    runtime.config().map(config -> config.policy().cliName()).orElse(null),
                    runtime.topology().map(Topology::source).orElse(null),
                    (long) placement.threads().size(),
                    runtime.problem().orElse(null),
                    placement.placingOn().isEmpty() ? null : placement.placingOn().toList(),
                    placement.cpusetChanges(),
                    runtime.partitionBasis().map(basis -> (long) basis.chiplets()).orElse(null),
                    runtime.partitionBasis().map(basis -> (long) basis.cores()).orElse(null)));
        };
    }

    /** The node's {@code windows} row: the schedule it follows (none: every window placed), its arm now, its plugin CPU. */
    static List<Object> windowsRow(String node, Optional<WindowSchedule> schedule, Arm arm)
    {
        return row(node, schedule.map(WindowSchedule::epoch).orElse(null), schedule.map(WindowSchedule::version).orElse(null),
                schedule.map(WindowSchedule::windowMillis).orElse(null), arm.jsonName(), schedule.map(followed -> followed.latest().placing()).orElse(true),
                PluginThreads.cpuNanos());
    }

    /** Test only: the rows of {@code test_work}, each row's work stretched by the injector in its arm's windows. */
    static List<List<Object>> testWorkRows(String node, Optional<EffectInjector> injector, Supplier<Arm> arm)
    {
        List<List<Object>> rows = new ArrayList<>(EffectInjector.ROWS);
        for (int i = 0; i < EffectInjector.ROWS; i++) {
            long value = injector.isPresent() ? injector.get().row(i, arm.get()) : EffectInjector.expectedRow(i);
            rows.add(row(node, (long) i, value));
        }
        return rows;
    }

    /** The {@code skew} table's rows: the coordinator's history, carried in the split. */
    static List<List<Object>> skewRows(List<CompletedStageSkew> skew)
    {
        return skew.stream()
                .map(stage -> row(stage.queryId(), stage.source(), (long) stage.stageId(), (long) stage.tasks(), stage.inputRows(),
                        stage.maxOverMedian(), stage.maxToMean(), stage.gini(), stage.hint(), stage.queryShape().isEmpty() ? null : stage.queryShape(),
                        stage.evidence()))
                .toList();
    }

    private static List<List<Object>> topologyRows(String node, Topology topology)
    {
        return topology.chiplets().stream()
                .map(chiplet -> row(node, (long) chiplet.id(), chiplet.cpus().toList(), chiplet.numaNode() < 0 ? null : (long) chiplet.numaNode(),
                        chiplet.l3Bytes(), coreKind(topology, chiplet)))
                .toList();
    }

    /** The kinds of the chiplet's cores on a hybrid part, {@code null} where all cores are alike. */
    private static String coreKind(Topology topology, Chiplet chiplet)
    {
        String kinds = topology.coreKinds().stream()
                .filter(kind -> kind.cpus().intersects(chiplet.cpus()))
                .map(CoreKind::name)
                .collect(Collectors.joining(","));
        return kinds.isEmpty() ? null : kinds;
    }

    private static List<Object> row(Object... cells)
    {
        return Arrays.asList(cells);
    }
}
