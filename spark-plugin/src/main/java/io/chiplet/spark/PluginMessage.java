package io.chiplet.spark;

import java.io.Serializable;

/** What executors and the driver say to each other through {@code PluginContext.ask}. */
public sealed interface PluginMessage
        extends Serializable
        permits TopologyReport, SpreadHintRequest, SpreadHints
{}
