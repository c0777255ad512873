package io.chiplet.trino.connector;

/**
 * The coordinator's in-place measurement (docs/measuring.md) as a JMX bean,
 * {@code io.chiplet.trino:type=Measurement,name=<catalog>}: the overall figures of {@code runtime.measurement}. Ratios
 * are NaN while there is no figure yet (Trino's JMX connector shows them as NaN, Prometheus exporters skip them).
 */
public interface ChipletMeasurementMXBean
{
    /** Placed time over control time's inverse: above 1, placed work ran faster. */
    double getSpeedUp();

    /** The 95 % interval's lower end. */
    double getSpeedUpLow();

    double getSpeedUpHigh();

    /** Placed windows (per query shape) compared. */
    long getPlacedUnits();

    long getControlUnits();

    /** Query shapes with both arms. */
    long getShapesCompared();

    /** Whether the guard lets placement go on. */
    boolean isPlacing();

    double getControlShare();

    /** The plugin's own CPU time over the queries' CPU time. */
    double getPluginCpuShare();

    String getVerdict();

    String getSummary();
}
