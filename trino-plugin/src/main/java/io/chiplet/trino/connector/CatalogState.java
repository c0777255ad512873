package io.chiplet.trino.connector;

import io.chiplet.trino.measure.WindowSchedule;
import io.chiplet.trino.skew.CompletedStageSkew;

import java.util.List;
import java.util.Optional;

/**
 * What a node's chiplet catalog answers its tables from: the {@link NodeRuntime} it started, or, where creating the
 * catalog failed before that, only the cause ({@link FailedCatalog}).
 */
sealed interface CatalogState
        permits NodeRuntime, FailedCatalog
{
    String catalog();

    String node();

    /** Why nothing is placed; empty while placing. */
    Optional<String> problem();

    /** Every column of {@code table}'s rows on this node, in column order; {@code skew} is the coordinator's history. */
    List<List<Object>> rows(RuntimeTable table, List<CompletedStageSkew> skew);

    /** Follows the coordinator's measurement schedule, where this node places threads; nothing elsewhere. */
    default void follow(WindowSchedule schedule) {}

    void close();
}
