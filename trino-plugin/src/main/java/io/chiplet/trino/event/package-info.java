/**
 * The event listener: measures each completed query's stage skew and records it in the skew history.
 *
 * <p>Allowed dependencies: {@code io.chiplet.trino.guard}, {@code io.chiplet.trino.skew}, {@code
 * io.chiplet.trino.measure}, {@code io.chiplet.placement}, {@code io.chiplet.settings}.
 */
package io.chiplet.trino.event;
