/**
 * The 22 TPC-H queries that {@code chiplet demo}, the jmh on/off benchmarks and the engines' tests run, each as one
 * statement in the dialect of the engine that runs it. The texts come from the {@code io.trino.tpch} jar on the
 * module's own dependency (which also generates the callers' data). Its own module ({@code tpch}), never in a
 * plugin's jar. Depends on nothing else of ours.
 *
 * <p>Allowed dependencies: none of ours.
 */
package io.chiplet.tpch;
