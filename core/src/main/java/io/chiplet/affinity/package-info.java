/**
 * Binding threads and processes to chiplets: the pinning backends (our own syscalls through FFM or JNA, or OpenHFT)
 * behind {@link io.chiplet.affinity.PinningBackend}, memory policies, pinned-thread bind and restore, host-wide
 * chiplet leases, and the CPUs this process may use (cgroup, affinity mask). The syscall wrappers live here, behind
 * these types.
 *
 * <p>May depend on {@code io.chiplet.topology} (the CPU sets it binds to) and {@code io.chiplet.nativeio}; never on
 * placement, perf, settings, discovery or cli.
 */
package io.chiplet.affinity;
