/**
 * What the engines' TPC-H on/off benchmarks share: arguments, interleaved rounds, result fingerprints, the comparison
 * and its report.
 *
 * <p>May depend on {@code report} and core; never on {@code spark} or {@code trino}.
 */
package io.chiplet.jmh.tpch;
