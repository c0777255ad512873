/**
 * Keeping Trino running whatever we do: {@link io.chiplet.trino.guard.FailOpenSwitch} switches a part of the plugin
 * off with one warning on its first failure, and {@link io.chiplet.trino.guard.SpiMembers} calls SPI members only
 * where the running Trino has them.
 *
 * <p>Allowed dependencies: {@code io.chiplet.failopen}.
 */
package io.chiplet.trino.guard;
