/**
 * What the engines' TPC-H on/off benchmarks share: arguments, interleaved rounds, result fingerprints, the comparison
 * and its report.
 *
 * <p>Allowed dependencies: {@code io.chiplet.jmh.report}, {@code io.chiplet.measure}.
 */
package io.chiplet.jmh.tpch;
