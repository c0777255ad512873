/**
 * The session property manager: session defaults fitted to the coordinator's chiplets, rules per user, source or
 * resource group, and skew hints for later queries of a source.
 *
 * <p>Allowed dependencies: {@code io.chiplet.trino.guard}, {@code io.chiplet.trino.skew}, {@code
 * io.chiplet.trino.cluster}, {@code io.chiplet.discovery}, {@code io.chiplet.placement}, {@code io.chiplet.topology}, {@code io.chiplet.settings},
 * {@code io.chiplet.engine}, {@code io.chiplet.engine.trino}.
 */
package io.chiplet.trino.session;
