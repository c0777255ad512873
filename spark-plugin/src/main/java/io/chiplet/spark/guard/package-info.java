/**
 * Fail-open: {@link io.chiplet.spark.guard.FailOpenGuard} runs each entry point of a side of the plugin, and the
 * first failure of ours logs one warning and switches that side off, leaving Spark as it would be without us.
 *
 * <p>Depends on nothing else of the plugin or core (SLF4J only), so every package may use it.
 */
package io.chiplet.spark.guard;
