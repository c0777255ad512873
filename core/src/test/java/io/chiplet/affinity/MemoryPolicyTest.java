package io.chiplet.affinity;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Live tests: this machine has NUMA node 0 only, which every Linux kernel has. */
class MemoryPolicyTest
{
    private static <T> T onFreshThread(Supplier<T> task)
            throws Exception
    {
        // A thread's policy outlives the test otherwise; a fresh thread ends with it.
        return CompletableFuture.supplyAsync(task, runnable -> Thread.ofPlatform().start(runnable)).get(30, TimeUnit.SECONDS);
    }

    @Test
    void threadPolicyReadsBack()
            throws Exception
    {
        List<MemoryPolicy> seen = onFreshThread(() -> {
            MemoryPolicy initial = MemoryPolicy.ofCurrentThread();
            MemoryPolicy.bind(List.of(0)).applyToCurrentThread();
            MemoryPolicy bound = MemoryPolicy.ofCurrentThread();
            MemoryPolicy.preferred(0).applyToCurrentThread();
            MemoryPolicy preferred = MemoryPolicy.ofCurrentThread();
            MemoryPolicy.interleave(List.of(0)).applyToCurrentThread();
            MemoryPolicy interleaved = MemoryPolicy.ofCurrentThread();
            MemoryPolicy.systemDefault().applyToCurrentThread();
            return List.of(initial, bound, preferred, interleaved, MemoryPolicy.ofCurrentThread());
        });
        assertThat(seen).containsExactly(
                MemoryPolicy.systemDefault(),
                MemoryPolicy.bind(List.of(0)),
                MemoryPolicy.preferred(0),
                MemoryPolicy.interleave(List.of(0)),
                MemoryPolicy.systemDefault());
    }

    @Test
    @SuppressWarnings("restricted")
    void mbindBoundRangeReadsBackItsPolicy()
    {
        long page = MmapSyscalls.pageSize();
        MemorySegment bound = MmapSyscalls.mapAnonymous(4 * page).reinterpret(4 * page);
        MemorySegment other = MmapSyscalls.mapAnonymous(page).reinterpret(page);
        try {
            MemoryPolicy.bind(List.of(0)).applyTo(bound.address(), bound.byteSize(), true);
            // mbind alone faults nothing in: the policy decides where pages land when first touched.
            assertThat(MmapSyscalls.residentPages(bound)).isZero();
            assertThat(MemoryPolicy.ofAddress(bound.address())).isEqualTo(MemoryPolicy.bind(List.of(0)));
            assertThat(MemoryPolicy.ofAddress(bound.address() + 3 * page)).isEqualTo(MemoryPolicy.bind(List.of(0)));
            assertThat(MemoryPolicy.ofAddress(other.address())).isEqualTo(MemoryPolicy.systemDefault());
        }
        finally {
            MmapSyscalls.unmap(bound.address(), 4 * page);
            MmapSyscalls.unmap(other.address(), page);
        }
    }

    @Test
    void disallowedNodeIsNamed()
            throws Exception
    {
        String message = onFreshThread(() -> {
            try {
                MemoryPolicy.bind(List.of(0, 5)).applyToCurrentThread();
                return "no error";
            }
            catch (IllegalArgumentException e) {
                return e.getMessage() + " / now " + MemoryPolicy.ofCurrentThread();
            }
        });
        assertThat(message).isEqualTo("NUMA node 5 is not allowed for this process (allowed: 0) / now " + MemoryPolicy.systemDefault());
    }

    @Test
    void misalignedOrNullAddressesAreRefused()
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment misaligned = arena.allocate(MmapSyscalls.pageSize() * 2, 8).asSlice(8, 64);
            MemorySegment finalSegment = misaligned.address() % MmapSyscalls.pageSize() == 0 ? misaligned.asSlice(8) : misaligned;
            assertThatThrownBy(() -> MemoryPolicy.bind(List.of(0)).applyTo(finalSegment.address(), finalSegment.byteSize(), false))
                    .hasMessageStartingWith("mbind needs a page-aligned segment");
        }
        assertThatThrownBy(() -> MemoryPolicy.bind(List.of(0)).applyTo(0, 64, false))
                .hasMessageStartingWith("mbind needs a page-aligned segment");
    }

    @Test
    void invalidPoliciesAreRefused()
    {
        assertThatThrownBy(() -> MemoryPolicy.bind(List.of())).hasMessage("memory policy BIND needs at least one NUMA node");
        assertThatThrownBy(() -> new MemoryPolicy(MemoryPolicy.Mode.PREFERRED, new java.util.TreeSet<>(List.of(0, 1))))
                .hasMessage("memory policy PREFERRED takes one NUMA node but got [0, 1]");
        assertThatThrownBy(() -> MemoryPolicy.bind(List.of(2000))).hasMessage("NUMA node 2000 is outside 0-1023");
    }
}
