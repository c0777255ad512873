/**
 * TPC-H on Trino with and without the plugin: a Trino server in its own process and the protocol to drive it.
 *
 * <p>May depend on {@code tpch}, {@code report}, the Trino plugin and core.
 */
package io.chiplet.jmh.trino;
