/**
 * The {@code chiplet} catalog: on each worker it starts the node's runtime (topology, thread placement) and serves
 * system tables of the runtime, the placement and the coordinator's skew history.
 *
 * <p>May depend on {@code guard}, {@code placement}, {@code skew} and core; never on {@code event} or {@code
 * session}.
 */
package io.chiplet.trino.connector;
