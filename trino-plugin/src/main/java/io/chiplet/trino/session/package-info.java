/**
 * The session property manager: session defaults fitted to the coordinator's chiplets, rules per user, source or
 * resource group, and skew hints for later queries of a source.
 *
 * <p>May depend on {@code guard}, {@code skew} and core; never on {@code connector}, {@code event} or {@code
 * placement}.
 */
package io.chiplet.trino.session;
