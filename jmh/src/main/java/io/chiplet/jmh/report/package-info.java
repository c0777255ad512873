/**
 * The performance report: JMH results read back, the machine they ran on, medians, and the Markdown and SVG written
 * from them.
 *
 * <p>Allowed dependencies: {@code io.chiplet.jmh.workload}, {@code io.chiplet.discovery}, {@code io.chiplet.topology}.
 */
package io.chiplet.jmh.report;
