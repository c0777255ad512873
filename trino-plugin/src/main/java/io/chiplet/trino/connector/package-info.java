/**
 * The {@code chiplet} catalog: on each worker it starts the node's runtime (topology, thread placement) and serves
 * system tables of the runtime, the placement and the coordinator's skew history.
 *
 * <p>Allowed dependencies: {@code io.chiplet.trino.guard}, {@code io.chiplet.trino.placement}, {@code
 * io.chiplet.trino.skew}, {@code io.chiplet.trino.cluster}, {@code io.chiplet.trino.measure}, {@code
 * io.chiplet.affinity}, {@code io.chiplet.discovery}, {@code io.chiplet.measure}, {@code io.chiplet.placement}, {@code
 * io.chiplet.settings}, {@code io.chiplet.topology}, {@code io.chiplet.binding}, {@code io.chiplet.wire}.
 */
package io.chiplet.trino.connector;
