/**
 * Placed workload kernels (stream, GUPS, hash join, group-by, scan, core-to-core) run on workers the planner places,
 * to measure what placement is worth on this machine.
 *
 * <p>May depend on core only.
 */
package io.chiplet.jmh.workload;
