/**
 * Measuring placement in place on Trino (issue 23): the cluster's switchback schedule of placed and control windows,
 * which the coordinator publishes and every worker follows; the coordinator's attribution of completed queries to
 * the windows they ran in, fed to core's {@link io.chiplet.measure.Measurement}; the settings; the test-only effect
 * injector. Depends on core only.
 *
 * <p>Allowed dependencies: {@code io.chiplet.measure}, {@code io.chiplet.settings}.
 */
package io.chiplet.trino.measure;
