/**
 * Hardware performance counters ({@code perf_event_open}): which events this CPU has, counter groups on a thread, and
 * the signals drawn from them (remote-access rate, cache fills by source) for the adaptive loop.
 *
 * <p>Allowed dependencies: {@code io.chiplet.nativeio}, {@code io.chiplet.topology}.
 */
package io.chiplet.perf;
