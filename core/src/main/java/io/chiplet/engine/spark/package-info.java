/**
 * Spark's dialect: core's partition sizing as Spark's own settings ({@link io.chiplet.engine.spark.SparkPartitionSettings}),
 * and how many executors a Spark configuration runs ({@link io.chiplet.engine.spark.SparkExecutorExpectation}). Pure:
 * no I/O, clocks or threads; what {@code chiplet advise} prints and what the Spark plugin applies, so they cannot differ.
 *
 * <p>Allowed dependencies: {@code io.chiplet.engine}, {@code io.chiplet.placement}.
 */
package io.chiplet.engine.spark;
