/**
 * The machine as an executor sees it: where its topology comes from (discovered, restricted to the CPUs it may use),
 * and its share of the host's chiplets (which chiplets are usable, and what partition sizing counts, is core's).
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark.settings}, {@code io.chiplet.affinity}, {@code
 * io.chiplet.discovery}, {@code io.chiplet.placement}, {@code io.chiplet.topology}, {@code io.chiplet.binding}, {@code io.chiplet.settings}.
 */
package io.chiplet.spark.topology;
