/**
 * The executor side: resolves its mode and share of the host, reports its machine to the driver, places each task
 * through {@code placement} and sends its counts; fails open through {@code guard}.
 *
 * <p>May depend on {@code guard}, {@code settings}, {@code topology}, {@code messages}, {@code skew}, {@code
 * placement}, {@code driver} (the switch-off key the driver sends) and core.
 */
package io.chiplet.spark.executor;
