package io.chiplet.affinity;

import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativePath;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ProcessAffinityMaskTest
{
    @Test
    void readsTheAllowedListOfAStatusText()
    {
        String status = "Name:\tjava\nCpus_allowed:\tff0f\nCpus_allowed_list:\t0-3,8-15\nMems_allowed_list:\t0\n";

        assertThat(ProcessAffinityMask.parse(status)).contains(CpuSet.parseList("0-3,8-15"));
        assertThat(ProcessAffinityMask.parse("Name:\tjava\n")).isEmpty();
        assertThatThrownBy(() -> ProcessAffinityMask.parse("Cpus_allowed_list:\tmany\n")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void equalsTheMainThreadsMaskTheKernelReturns()
    {
        assumeTrue(NativeAccess.isLinux() && NativeAccess.path().kind() != NativePath.Kind.NONE);

        Optional<CpuSet> mask = new ProcessAffinityMask().affinityMask();

        assertThat(mask).contains(SchedSyscalls.getAffinity((int) ProcessHandle.current().pid()));
    }
}
