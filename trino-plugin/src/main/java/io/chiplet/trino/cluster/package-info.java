/**
 * What the workers told the coordinator: each worker's usable chiplets and cores, as the chiplet catalog's
 * {@code status} table reports them on the worker itself, kept on the coordinator (and in a small file, so that a
 * restarted coordinator sizes sessions as before until the workers report again).
 *
 * <p>Allowed dependencies: none of ours.
 */
package io.chiplet.trino.cluster;
