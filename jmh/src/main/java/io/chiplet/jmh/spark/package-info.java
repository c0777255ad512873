/**
 * TPC-H on Spark with and without the plugin, interleaved rounds.
 *
 * <p>Allowed dependencies: {@code io.chiplet.jmh.tpch}, {@code io.chiplet.jmh.report}, {@code io.chiplet.measure},
 * {@code io.chiplet.engine.spark}, {@code io.chiplet.tpch}, {@code io.chiplet.spark}, {@code io.chiplet.spark.tpch}.
 */
package io.chiplet.jmh.spark;
