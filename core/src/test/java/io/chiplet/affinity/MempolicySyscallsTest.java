package io.chiplet.affinity;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MempolicySyscallsTest
{
    @Test
    void modeFlagsAreStripped()
    {
        int reported = MempolicySyscalls.MPOL_BIND | MempolicySyscalls.MPOL_F_STATIC_NODES;
        assertThat(MempolicySyscalls.modeOf(reported)).isEqualTo(MempolicySyscalls.MPOL_BIND);
        assertThat(MempolicySyscalls.modeName(reported)).isEqualTo("MPOL_BIND");
    }
}
