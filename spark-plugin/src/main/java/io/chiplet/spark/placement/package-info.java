/**
 * Where an executor's tasks run: per-task thread pinning on chiplet slots, whole-executor process binding, Python
 * worker placement, the adaptive controller, the placement metrics. The binders act through core's affinity package;
 * the decisions (pin unit, spread) are core's.
 *
 * <p>May depend on {@code settings}, {@code topology}, {@code skew} (the driver's hints) and core; never on {@code
 * driver}, {@code executor} or {@code messages}.
 */
package io.chiplet.spark.placement;
