/**
 * The executor side: resolves its mode and share of the host, reports its machine to the driver, places each task
 * through {@code placement} and sends its counts; fails open through {@code guard}.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark.guard}, {@code io.chiplet.spark.settings}, {@code
 * io.chiplet.spark.topology}, {@code io.chiplet.spark.messages}, {@code io.chiplet.spark.skew}, {@code
 * io.chiplet.spark.placement}, {@code io.chiplet.spark.driver}, {@code io.chiplet.spark.measure}, {@code
 * io.chiplet.affinity}, {@code io.chiplet.measure}, {@code io.chiplet.nativeio}, {@code io.chiplet.placement}, {@code io.chiplet.settings}, {@code io.chiplet.report}, {@code
 * io.chiplet.topology}.
 */
package io.chiplet.spark.executor;
