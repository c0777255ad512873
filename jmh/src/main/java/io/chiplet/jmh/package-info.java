/**
 * The JMH benchmarks of the native and decision paths (pin and restore, CPU lookup, discovery, counters, the planner,
 * Spark's task hook) and {@code BenchSuite}, which runs them and the workloads and writes the report.
 *
 * <p>Allowed dependencies: {@code io.chiplet.jmh..}, {@code io.chiplet.nativeio}, {@code io.chiplet.topology}, {@code
 * io.chiplet.affinity}, {@code io.chiplet.perf}, {@code io.chiplet.placement}, {@code io.chiplet.adaptive}, {@code
 * io.chiplet.settings}, {@code io.chiplet.discovery}, {@code io.chiplet.measure}, {@code io.chiplet.tpch}, {@code
 * io.chiplet.spark}, {@code io.chiplet.spark.placement}.
 */
package io.chiplet.jmh;
