package io.chiplet.trino;

import io.chiplet.trino.connector.ChipletConnectorFactory;
import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;

import java.util.List;

/**
 * Trino's entry point for the chiplet plugin, installed as {@code plugin/chiplet/} on every node. Trino creates one
 * instance per plugin directory, so state the coordinator's parts share (the skew history) lives here.
 */
public final class ChipletTrinoPlugin
        implements Plugin
{
    private final SkewHistory skewHistory = new SkewHistory(1024);

    @Override
    public Iterable<ConnectorFactory> getConnectorFactories()
    {
        return List.of(new ChipletConnectorFactory(skewHistory));
    }
}
