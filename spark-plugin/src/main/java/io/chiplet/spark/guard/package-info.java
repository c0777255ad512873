/**
 * Fail-open: {@link io.chiplet.spark.guard.FailOpenGuard} runs each entry point of a side of the plugin, and the
 * first failure of ours logs one warning and switches that side off, leaving Spark as it would be without us.
 *
 * <p>Allowed dependencies: {@code io.chiplet.failopen}.
 */
package io.chiplet.spark.guard;
