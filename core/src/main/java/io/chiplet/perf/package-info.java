/**
 * Hardware performance counters ({@code perf_event_open}): which events this CPU has, counter groups on a thread, and
 * the signals drawn from them (remote-access rate, cache fills by source) for the adaptive loop.
 *
 * <p>May depend on {@code io.chiplet.nativeio} and {@code io.chiplet.topology}; never on affinity, placement,
 * settings, discovery or cli.
 */
package io.chiplet.perf;
