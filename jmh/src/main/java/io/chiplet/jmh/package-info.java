/**
 * The JMH benchmarks of the native and decision paths (pin and restore, CPU lookup, discovery, counters, the planner,
 * Spark's task hook) and {@code BenchSuite}, which runs them and the workloads and writes the report.
 *
 * <p>May depend on every {@code io.chiplet.jmh} sub-package, on core and on the plugins' public types.
 */
package io.chiplet.jmh;
