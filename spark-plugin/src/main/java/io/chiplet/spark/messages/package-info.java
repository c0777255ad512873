/**
 * What the executors and the driver tell each other through Spark's plugin RPC, and its string encoding: an
 * executor's machine ({@code TopologyReport}), its task counts ({@code PlacementCounts}), its spread-hint request.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark.settings}, {@code io.chiplet.spark.topology}, {@code
 * io.chiplet.spark.skew}, {@code io.chiplet.spark.placement}, {@code io.chiplet.affinity}, {@code io.chiplet.placement},
 * {@code io.chiplet.settings}, {@code io.chiplet.wire}.
 */
package io.chiplet.spark.messages;
