/**
 * TPC-H on Trino with and without the plugin: a Trino server in its own process and the protocol to drive it.
 *
 * <p>Allowed dependencies: {@code io.chiplet.jmh.tpch}, {@code io.chiplet.jmh.report}, {@code io.chiplet.measure},
 * {@code io.chiplet.tpch}, {@code io.chiplet.trino}, {@code io.chiplet.trino.connector}, {@code
 * io.chiplet.trino.measure}, {@code io.chiplet.trino.session}.
 */
package io.chiplet.jmh.trino;
