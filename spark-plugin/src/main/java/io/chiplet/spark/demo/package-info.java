/**
 * {@code chiplet demo}: TPC-H on a local Spark with and without the plugin (timed in interleaved pairs, judged by core's
 * {@code io.chiplet.measure}), what the plugin would do on the machines the demo carries (their hwloc readings as
 * resources, with the papers' figures for such machines), and the JVM options Spark needs on this JDK. Not part of the
 * plugin's runtime path.
 *
 * <p>May depend on every plugin package, {@code tpch} and core; no plugin package depends on it.
 */
package io.chiplet.spark.demo;
