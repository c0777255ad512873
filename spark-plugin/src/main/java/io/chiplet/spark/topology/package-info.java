/**
 * The machine as an executor sees it: where its topology comes from (discovered, restricted to the CPUs it may use),
 * its share of the host's chiplets, and the summary the driver sizes partitions from.
 *
 * <p>May depend on {@code settings} and core.
 */
package io.chiplet.spark.topology;
