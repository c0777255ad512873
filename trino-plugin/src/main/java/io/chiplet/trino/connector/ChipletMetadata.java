package io.chiplet.trino.connector;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.SchemaTableName;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Schema {@code runtime} and its tables; nothing to create, alter or write. */
final class ChipletMetadata
        implements ConnectorMetadata
{
    @Override
    public List<String> listSchemaNames(ConnectorSession session)
    {
        return List.of(RuntimeTable.SCHEMA);
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName tableName, Optional<ConnectorTableVersion> startVersion,
            Optional<ConnectorTableVersion> endVersion)
    {
        if (startVersion.isPresent() || endVersion.isPresent()) {
            return null;
        }
        return RuntimeTable.of(tableName).map(ChipletTableHandle::new).orElse(null);
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle table)
    {
        return ((ChipletTableHandle) table).table().metadata();
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schemaName)
    {
        if (schemaName.isPresent() && !schemaName.get().equals(RuntimeTable.SCHEMA)) {
            return List.of();
        }
        return RuntimeTable.visibleValues().stream().map(RuntimeTable::schemaTableName).toList();
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        RuntimeTable table = ((ChipletTableHandle) tableHandle).table();
        Map<String, ColumnHandle> handles = new LinkedHashMap<>();
        List<ColumnMetadata> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            handles.put(columns.get(i).getName(), new ChipletColumnHandle(columns.get(i).getName(), i));
        }
        return handles;
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle columnHandle)
    {
        return ((ChipletTableHandle) tableHandle).table().columns().get(((ChipletColumnHandle) columnHandle).index());
    }
}
