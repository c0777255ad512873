package io.chiplet.affinity;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MempolicySyscallsTest
{
    @Test
    void syscallNumbersFollowTheArchitecture()
    {
        assertThat(MempolicySyscalls.SyscallNumbers.forArch("amd64")).isEqualTo(new MempolicySyscalls.SyscallNumbers(238, 239, 237));
        assertThat(MempolicySyscalls.SyscallNumbers.forArch("aarch64")).isEqualTo(new MempolicySyscalls.SyscallNumbers(237, 236, 235));
        // Unknown: -1, which the kernel answers with ENOSYS instead of running some other syscall.
        assertThat(MempolicySyscalls.SyscallNumbers.forArch("riscv64")).isEqualTo(new MempolicySyscalls.SyscallNumbers(-1, -1, -1));
    }

    @Test
    void modeFlagsAreStripped()
    {
        int reported = MempolicySyscalls.MPOL_BIND | MempolicySyscalls.MPOL_F_STATIC_NODES;
        assertThat(MempolicySyscalls.modeOf(reported)).isEqualTo(MempolicySyscalls.MPOL_BIND);
        assertThat(MempolicySyscalls.modeName(reported)).isEqualTo("MPOL_BIND");
    }
}
