package io.chiplet.trino.connector;

import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * {@code connector.name=chiplet}: Trino creates the catalog on every node, which makes it the worker-side hook for
 * thread placement. Creation never fails because of a setting or the machine (see {@link NodeRuntime}).
 */
public final class ChipletConnectorFactory
        implements ConnectorFactory
{
    public static final String NAME = "chiplet";

    private final SkewHistory skewHistory;

    public ChipletConnectorFactory(SkewHistory skewHistory)
    {
        this.skewHistory = requireNonNull(skewHistory, "skewHistory is null");
    }

    @Override
    public String getName()
    {
        return NAME;
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        requireNonNull(catalogName, "catalogName is null");
        requireNonNull(config, "config is null");
        NodeRuntime runtime = NodeRuntime.start(catalogName, context.getCurrentNode().getNodeIdentifier(), config);
        return new ChipletConnector(runtime, context.getNodeManager(), skewHistory);
    }
}
