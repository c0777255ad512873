/**
 * The machine as an executor sees it: where its topology comes from (discovered, restricted to the CPUs it may use),
 * and its share of the host's chiplets (which chiplets are usable, and what partition sizing counts, is core's).
 *
 * <p>May depend on {@code settings} and core.
 */
package io.chiplet.spark.topology;
