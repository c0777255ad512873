/**
 * TPC-H on Spark with and without the plugin, interleaved rounds.
 *
 * <p>May depend on {@code tpch}, {@code report}, the Spark plugin and core.
 */
package io.chiplet.jmh.spark;
