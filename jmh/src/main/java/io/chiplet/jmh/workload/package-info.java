/**
 * Placed workload kernels (stream, GUPS, hash join, group-by, scan, core-to-core) run on workers the planner places,
 * to measure what placement is worth on this machine.
 *
 * <p>Allowed dependencies: {@code io.chiplet.affinity}, {@code io.chiplet.discovery}, {@code io.chiplet.placement},
 * {@code io.chiplet.topology}, {@code io.chiplet.binding}, {@code io.chiplet.settings}.
 */
package io.chiplet.jmh.workload;
