/**
 * The performance report: JMH results read back, the machine they ran on, medians, and the Markdown and SVG written
 * from them.
 *
 * <p>May depend on {@code workload} and core; never on the engine benchmarks ({@code spark}, {@code trino}, {@code
 * tpch}).
 */
package io.chiplet.jmh.report;
