/**
 * The plugin's {@code spark.chiplet.*} settings, read once into {@link io.chiplet.spark.settings.ChipletSettings}
 * through core's settings reader, and the choices they name (placement mode, pinning backend).
 *
 * <p>May depend on core only.
 */
package io.chiplet.spark.settings;
