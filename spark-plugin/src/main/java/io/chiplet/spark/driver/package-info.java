/**
 * The driver side: applies the chiplet-sized Spark settings, collects the executors' reports and counts into the
 * driver's metrics, and answers their spread-hint requests from the skew it measures.
 *
 * <p>May depend on {@code guard}, {@code settings}, {@code topology}, {@code messages}, {@code skew} and core; never
 * on {@code executor} or {@code placement}.
 */
package io.chiplet.spark.driver;
