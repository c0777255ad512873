/**
 * The plugin's page: what it did in an application run ({@link io.chiplet.report.RunFacts}: chiplets, tasks per
 * chiplet, settings, the measurement over time, the guard, its own cost) drawn as HTML and JSON
 * ({@link io.chiplet.report.RunsPage}), runs of one application pooled. One page for {@code chiplet report} (from
 * event logs) and the Spark UI's Chiplet tab (live and in the History Server), with each host's chiplets as a picture
 * ({@link io.chiplet.report.TopologySvg}, also {@code chiplet topology --format svg}). No I/O.
 *
 * <p>Allowed dependencies: {@code io.chiplet.measure}, {@code io.chiplet.topology}.
 */
package io.chiplet.report;
