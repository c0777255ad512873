/**
 * Binding threads and processes to chiplets: the pinning backends (our own syscalls through FFM or JNA, or OpenHFT)
 * behind {@link io.chiplet.affinity.PinningBackend}, memory policies, pinned-thread bind and restore, host-wide
 * chiplet leases, and the CPUs this process may use (cgroup, affinity mask). The syscall wrappers live here, behind
 * these types.
 *
 * <p>Allowed dependencies: {@code io.chiplet.topology}, {@code io.chiplet.nativeio}.
 */
package io.chiplet.affinity;
