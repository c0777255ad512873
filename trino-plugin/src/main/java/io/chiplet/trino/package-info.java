/**
 * The Trino plugin's entry ({@link io.chiplet.trino.ChipletTrinoPlugin}): registers the {@code chiplet} connector,
 * the skew event listener and the session property manager, which share the coordinator's skew history.
 *
 * <p>May depend on every {@code io.chiplet.trino} sub-package and on core; no sub-package depends on it.
 */
package io.chiplet.trino;
