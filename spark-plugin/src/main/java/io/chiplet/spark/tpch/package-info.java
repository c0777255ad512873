/**
 * TPC-H tables and queries for Spark, shared by the demo, the benchmarks and the integration tests.
 *
 * <p>Depends on nothing else of the plugin or core.
 */
package io.chiplet.spark.tpch;
