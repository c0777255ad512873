/**
 * The Trino plugin's entry ({@link io.chiplet.trino.ChipletTrinoPlugin}): registers the {@code chiplet} connector,
 * the skew event listener and the session property manager, which share the coordinator's skew history.
 *
 * <p>Allowed dependencies: {@code io.chiplet.trino..}, {@code io.chiplet.nativeio}, {@code io.chiplet.topology},
 * {@code io.chiplet.affinity}, {@code io.chiplet.perf}, {@code io.chiplet.placement}, {@code io.chiplet.adaptive},
 * {@code io.chiplet.settings}, {@code io.chiplet.discovery}, {@code io.chiplet.measure}.
 */
package io.chiplet.trino;
