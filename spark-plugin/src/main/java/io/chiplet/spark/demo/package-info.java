/**
 * {@code chiplet demo}: TPC-H on a local Spark with and without the plugin, and the JVM options Spark needs on this
 * JDK. Not part of the plugin's runtime path.
 *
 * <p>May depend on every plugin package, {@code tpch} and core; no plugin package depends on it.
 */
package io.chiplet.spark.demo;
