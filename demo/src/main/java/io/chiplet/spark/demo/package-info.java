/**
 * {@code chiplet demo}: TPC-H on a local Spark with and without the plugin (timed in interleaved pairs, judged by core's
 * {@code io.chiplet.measure}), what the plugin would do on the machines the demo carries (their hwloc readings as
 * resources, with the papers' figures for such machines), and the JVM options Spark needs on this JDK. In the demo
 * module, beside the plugin and never in its jar.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark..}, {@code io.chiplet.nativeio}, {@code io.chiplet.topology},
 * {@code io.chiplet.affinity}, {@code io.chiplet.perf}, {@code io.chiplet.placement}, {@code io.chiplet.adaptive},
 * {@code io.chiplet.settings}, {@code io.chiplet.discovery}, {@code io.chiplet.measure}, {@code io.chiplet.tpch},
 * {@code io.chiplet.engine}, {@code io.chiplet.engine.spark}, {@code io.chiplet.slots}.
 */
package io.chiplet.spark.demo;
