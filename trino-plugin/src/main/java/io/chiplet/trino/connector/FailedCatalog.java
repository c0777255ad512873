package io.chiplet.trino.connector;

import io.chiplet.measure.Arm;

import io.chiplet.trino.skew.CompletedStageSkew;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A chiplet catalog whose creation failed before its {@link NodeRuntime} could start (a member the running Trino
 * lacks, a class the JVM cannot link, a bug of ours): it stays up, places nothing, and its {@code status} row says
 * why. Touches nothing but the SPI and this package, so it works whatever failed.
 */
record FailedCatalog(String catalog, String node, String cause)
        implements CatalogState
{
    FailedCatalog
    {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(node, "node is null");
        requireNonNull(cause, "cause is null");
    }

    @Override
    public Optional<String> problem()
    {
        return Optional.of(cause);
    }

    @Override
    public List<List<Object>> rows(RuntimeTable table, List<CompletedStageSkew> skew)
    {
        return switch (table) {
            case STATUS -> List.of(Arrays.asList(node, catalog, false, null, null, 0L, cause, null, 0L, null, null));
            case SKEW -> ChipletRecordSetProvider.skewRows(skew);
            case WINDOWS -> List.of(ChipletRecordSetProvider.windowsRow(node, Optional.empty(), Arm.PLACED));
            case TEST_WORK -> ChipletRecordSetProvider.testWorkRows(node, Optional.empty(), () -> Arm.PLACED);
            case TOPOLOGY, PLACEMENT, ADAPTATION, MEASUREMENT, COORDINATOR -> List.of();
        };
    }

    @Override
    public void close() {}
}
