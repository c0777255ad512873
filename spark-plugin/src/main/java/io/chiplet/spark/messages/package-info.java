/**
 * What the executors and the driver tell each other through Spark's plugin RPC, and its string encoding: an
 * executor's machine ({@code TopologyReport}), its task counts ({@code PlacementCounts}), its spread-hint request.
 *
 * <p>May depend on {@code settings}, {@code topology}, {@code skew} (the hints answered), {@code placement} (the
 * metrics counted) and core; never on {@code driver} or {@code executor}.
 */
package io.chiplet.spark.messages;
