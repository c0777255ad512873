/**
 * The plugin's {@code spark.chiplet.*} settings, read once into {@link io.chiplet.spark.settings.SparkSettings}
 * through core's settings reader (core declares each setting and the choices they name: placement mode, pinning
 * backend, measurement design).
 *
 * <p>Allowed dependencies: {@code io.chiplet.affinity}, {@code io.chiplet.measure}, {@code io.chiplet.placement},
 * {@code io.chiplet.settings}, {@code io.chiplet.topology}.
 */
package io.chiplet.spark.settings;

