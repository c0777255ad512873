/**
 * The driver side: applies the chiplet-sized Spark settings, collects the executors' reports and counts into the
 * driver's metrics, and answers their spread-hint requests from the skew it measures.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark.guard}, {@code io.chiplet.spark.settings}, {@code
 * io.chiplet.spark.topology}, {@code io.chiplet.spark.messages}, {@code io.chiplet.spark.skew}, {@code
 * io.chiplet.spark.measure}, {@code io.chiplet.spark.events}, {@code io.chiplet.spark.ui}, {@code io.chiplet.affinity}, {@code io.chiplet.settings}, {@code io.chiplet.placement},
 * {@code io.chiplet.engine}, {@code io.chiplet.engine.spark}, {@code io.chiplet.wire}.
 */
package io.chiplet.spark.driver;
