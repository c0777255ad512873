/**
 * What every engine dialect shares: which engines there are ({@link io.chiplet.engine.Engine}), one advised setting
 * with its reason ({@link io.chiplet.engine.AdvisedSetting}) and the wording of counts. Each engine's dialect (its
 * setting names and syntax, how its configuration says what it runs) is a package below this one; the decisions the
 * settings carry are {@code io.chiplet.placement}'s.
 *
 * <p>Allowed dependencies: none of ours.
 */
package io.chiplet.engine;
