/**
 * The event listener: measures each completed query's stage skew and records it in the skew history.
 *
 * <p>May depend on {@code guard}, {@code skew} and core; never on {@code connector}, {@code session} or {@code
 * placement}.
 */
package io.chiplet.trino.event;
