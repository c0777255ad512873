/**
 * Placement measured in place (docs/measuring.md): on executors, a seeded share of tasks per stage runs exactly as
 * without the plugin ({@link io.chiplet.spark.measure.MeasuredTaskPlacement}) and each task's arm goes to the driver;
 * on the driver, a listener joins the arms with the task-end metrics, and core's
 * {@link io.chiplet.measure.Measurement} estimates the speed-up, guards and says what the executors do next. Every
 * decision is core's; this package translates Spark's events and messages.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark.guard}, {@code io.chiplet.spark.settings}, {@code
 * io.chiplet.spark.placement}, {@code io.chiplet.measure}, {@code io.chiplet.placement},
 * {@code io.chiplet.settings}, {@code io.chiplet.topology}, {@code io.chiplet.wire}.
 */
package io.chiplet.spark.measure;
