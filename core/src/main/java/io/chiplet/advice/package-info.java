/**
 * Advice and presentation: the engine settings for one machine with the reason for each
 * ({@link io.chiplet.advice.Advice}), what a cluster manager (Kubernetes, YARN, standalone) needs to give a worker its
 * chiplet ({@link io.chiplet.advice.ClusterAdvice}), and plans and settings as text and JSON
 * ({@link io.chiplet.advice.PlanFormatter}). Composes the planner's decisions and the engines' dialects; decides
 * nothing of its own that a plugin would have to repeat. Pure: no I/O, clocks or threads.
 *
 * <p>Allowed dependencies: {@code io.chiplet.engine}, {@code io.chiplet.engine.spark}, {@code io.chiplet.engine.trino},
 * {@code io.chiplet.placement}, {@code io.chiplet.topology}.
 */
package io.chiplet.advice;
