package io.chiplet.trino.connector;

import io.chiplet.measure.EffectInjector;
import io.chiplet.settings.MeasureSettings;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The tables of schema {@code runtime}. All but {@code skew} and {@code coordinator} are answered by every node that
 * runs tasks for itself (one split per node); those two are the coordinator's, carried in their one split.
 */
public enum RuntimeTable
{
    TOPOLOGY(true,
            column("node", VARCHAR), column("chiplet", BIGINT), column("cpus", VARCHAR), column("numa_node", BIGINT),
            column("l3_bytes", BIGINT), column("core_kind", VARCHAR)),
    PLACEMENT(true,
            column("node", VARCHAR), column("thread_name", VARCHAR), column("tid", BIGINT), column("chiplet", BIGINT), column("cpus", VARCHAR)),
    ADAPTATION(true,
            column("node", VARCHAR), column("tid", BIGINT), column("spread", BIGINT), column("remote_access_rate", DOUBLE),
            column("signal_source", VARCHAR)),
    SKEW(false,
            column("query_id", VARCHAR), column("source", VARCHAR), column("stage_id", BIGINT), column("tasks", BIGINT),
            column("input_rows", BIGINT), column("max_over_median", DOUBLE), column("max_to_mean", DOUBLE), column("gini", DOUBLE),
            column("hint", VARCHAR), column("query_shape", VARCHAR), column("evidence", BOOLEAN)),
    COORDINATOR(false,
            column("part", VARCHAR), column("state", VARCHAR), column("detail", VARCHAR)),
    STATUS(true,
            column("node", VARCHAR), column("catalog", VARCHAR), column("placing", BOOLEAN), column("policy", VARCHAR),
            column("topology_source", VARCHAR), column("threads", BIGINT), column("problem", VARCHAR), column("placing_on_cpus", VARCHAR),
            column("cpuset_changes", BIGINT), column("usable_chiplets", BIGINT), column("usable_cores", BIGINT)),
    /** The coordinator's in-place measurement: one row per query shape compared and one {@code overall} row. */
    MEASUREMENT(false,
            column("query_shape", VARCHAR), column("query_text", VARCHAR), column("placed", BIGINT), column("control", BIGINT),
            column("speed_up", DOUBLE), column("speed_up_low", DOUBLE), column("speed_up_high", DOUBLE), column("verdict", VARCHAR),
            column("left_out", BIGINT), column("control_share", DOUBLE), column("placing", BOOLEAN), column("plugin_cpu_share", DOUBLE)),
    /** Each node's switchback schedule as it follows it, and its plugin threads' CPU time. */
    WINDOWS(true,
            column("node", VARCHAR), column("schedule_epoch", BIGINT), column("schedule_version", BIGINT), column("window_ms", BIGINT),
            column("arm", VARCHAR), column("placing", BOOLEAN), column("plugin_cpu_nanos", BIGINT)),
    /** Test only, present only while the effect injector is allowed: work the injector stretches ({@code EffectInjector}). */
    TEST_WORK(true,
            column("node", VARCHAR), column("row", BIGINT), column("value", BIGINT));

    public static final String SCHEMA = "runtime";

    /** The tables a node shows. */
    public static List<RuntimeTable> visibleValues()
    {
        return java.util.Arrays.stream(values()).filter(RuntimeTable::visible).toList();
    }

    private final boolean perNode;
    private final List<ColumnMetadata> columns;

    RuntimeTable(boolean perNode, ColumnMetadata... columns)
    {
        this.perNode = perNode;
        this.columns = List.of(columns);
    }

    private static ColumnMetadata column(String name, Type type)
    {
        return new ColumnMetadata(name, type);
    }

    /** Whether every node answers for itself (one split per node) rather than the coordinator alone. */
    public boolean perNode()
    {
        return perNode;
    }

    public String tableName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    public SchemaTableName schemaTableName()
    {
        return new SchemaTableName(SCHEMA, tableName());
    }

    public List<ColumnMetadata> columns()
    {
        return columns;
    }

    public ConnectorTableMetadata metadata()
    {
        return new ConnectorTableMetadata(schemaTableName(), columns);
    }

    public int columnIndex(String name)
    {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).getName().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("table " + tableName() + " has no column " + name);
    }

    /** Whether the table is there: {@code test_work} only in a JVM that allows the test-only effect injector. */
    public boolean visible()
    {
        return this != TEST_WORK || MeasureSettings.injectorAllowed();
    }

    public static Optional<RuntimeTable> of(SchemaTableName name)
    {
        if (!name.getSchemaName().equals(SCHEMA)) {
            return Optional.empty();
        }
        for (RuntimeTable table : visibleValues()) {
            if (table.tableName().equals(name.getTableName())) {
                return Optional.of(table);
            }
        }
        return Optional.empty();
    }
}
