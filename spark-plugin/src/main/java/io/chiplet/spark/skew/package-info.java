/**
 * Skew on the driver: Spark's listener feeds task and map-output sizes into {@link
 * io.chiplet.spark.skew.StageSkewTracker}, which turns each running stage's skew into spread hints ({@link
 * io.chiplet.spark.skew.SpreadHints}) for the executors.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark.guard}, {@code io.chiplet.placement}.
 */
package io.chiplet.spark.skew;
