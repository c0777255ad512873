/**
 * Where an executor's tasks run: per-task thread pinning on chiplet slots (Spark's task events translated into core's
 * {@code io.chiplet.slots} pool), whole-executor process binding, Python worker placement, the adaptive controller
 * (core's {@code io.chiplet.adaptive} loop applied to the slots), the placement metrics. The binders act through core's
 * affinity package; the decisions (pin unit, slot order, spread) and the mechanisms (slot pool, adaptive loop) are core's.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark.settings}, {@code io.chiplet.spark.topology}, {@code
 * io.chiplet.spark.skew}, {@code io.chiplet.adaptive}, {@code io.chiplet.affinity}, {@code io.chiplet.nativeio},
 * {@code io.chiplet.perf}, {@code io.chiplet.placement}, {@code io.chiplet.topology}, {@code io.chiplet.binding},
 * {@code io.chiplet.settings}, {@code io.chiplet.slots}.
 */
package io.chiplet.spark.placement;
