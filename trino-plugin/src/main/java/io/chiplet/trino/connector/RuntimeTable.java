package io.chiplet.trino.connector;

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
 * The tables of schema {@code runtime}. All but {@code skew} are answered by every node for itself (one split per
 * node); {@code skew} is the coordinator's, carried in its one split.
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
            column("hint", VARCHAR)),
    STATUS(true,
            column("node", VARCHAR), column("catalog", VARCHAR), column("placing", BOOLEAN), column("policy", VARCHAR),
            column("topology_source", VARCHAR), column("threads", BIGINT), column("problem", VARCHAR), column("placing_on_cpus", VARCHAR),
            column("cpuset_changes", BIGINT), column("usable_chiplets", BIGINT), column("usable_cores", BIGINT));

    public static final String SCHEMA = "runtime";

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

    public static Optional<RuntimeTable> of(SchemaTableName name)
    {
        if (!name.getSchemaName().equals(SCHEMA)) {
            return Optional.empty();
        }
        for (RuntimeTable table : values()) {
            if (table.tableName().equals(name.getTableName())) {
                return Optional.of(table);
            }
        }
        return Optional.empty();
    }
}
