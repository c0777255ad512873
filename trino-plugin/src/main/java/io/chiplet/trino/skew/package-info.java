/**
 * Stage skew of completed queries: the measure drawn from Trino's per-stage distributions, the bounded history the
 * coordinator keeps, and the hint it feeds back to later queries of the same source.
 *
 * <p>Allowed dependencies: {@code io.chiplet.placement}.
 */
package io.chiplet.trino.skew;
