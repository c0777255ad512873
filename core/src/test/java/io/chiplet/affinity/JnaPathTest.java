package io.chiplet.affinity;

import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.nativeio.NativePath;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The JNA path (JDK 17 and 21) gives the same answers as the FFM path, on this JVM, against the real kernel. The whole
 * plugin on a real JDK 17 is checked by the integration tests.
 */
class JnaPathTest
{
    private static final NativePath JNA = new NativePath(NativePath.Kind.JNA, "test");
    private static final NativePath FFM = new NativePath(NativePath.Kind.FFM, "test");

    @BeforeAll
    static void linux()
    {
        assumeTrue(NativeAccess.isLinux(), "the syscalls exist on Linux only");
    }

    @Test
    void threadIdsAndCpusAgree()
    {
        SchedCalls jna = SchedCalls.forPath(JNA);
        SchedCalls ffm = SchedCalls.forPath(FFM);
        assertThat(jna.gettid()).isEqualTo(ffm.gettid()).isPositive();
        CpuSet allowed = ffm.getAffinity(0);
        assertThat(jna.getAffinity(0)).isEqualTo(allowed);
        assertThat(allowed.contains(jna.currentCpu())).isTrue();
        assertThat(allowed.contains(jna.getcpu().cpu())).isTrue();
    }

    @Test
    void pinsAndRestoresWhatFfmReads()
            throws Exception
    {
        SchedCalls jna = SchedCalls.forPath(JNA);
        SchedCalls ffm = SchedCalls.forPath(FFM);
        Thread worker = new Thread(() -> {
            CpuSet allowed = jna.getAffinity(0);
            for (int cpu : allowed.toArray()) {
                jna.setAffinity(0, CpuSet.of(cpu));
                assertThat(ffm.getAffinity(0)).isEqualTo(CpuSet.of(cpu));
                assertThat(jna.currentCpu()).isEqualTo(cpu);
            }
            jna.setAffinity(0, allowed);
            assertThat(ffm.getAffinity(0)).isEqualTo(allowed);
        });
        worker.start();
        worker.join();
    }

    @Test
    void failuresCarryTheErrno()
    {
        SchedCalls jna = SchedCalls.forPath(JNA);
        // no CPU of the mask exists: EINVAL, named
        assertThatThrownBy(() -> jna.setAffinity(0, CpuSet.of(CpuSet.MAX_CPUS - 1)))
                .isInstanceOfSatisfying(NativeCallException.class, e -> assertThat(e.errnoName()).isEqualTo("EINVAL"))
                .hasMessageContaining("sched_setaffinity");
        assertThatThrownBy(() -> jna.getAffinity(Integer.MAX_VALUE))
                .isInstanceOfSatisfying(NativeCallException.class, e -> assertThat(e.errnoName()).isEqualTo("ESRCH"));
    }

    @Test
    void memoryPolicyRoundTrips()
            throws Exception
    {
        MempolicyCalls jna = MempolicyCalls.forPath(JNA);
        MempolicyCalls ffm = MempolicyCalls.forPath(FFM);
        Thread worker = new Thread(() -> {
            BitSet node0 = new BitSet();
            node0.set(0);
            jna.setMempolicy(MempolicySyscalls.MPOL_PREFERRED, node0);
            assertThat(ffm.getMempolicy().mode()).isEqualTo(MempolicySyscalls.MPOL_PREFERRED);
            assertThat(jna.getMempolicy()).isEqualTo(ffm.getMempolicy());
            jna.setMempolicy(MempolicySyscalls.MPOL_DEFAULT, new BitSet());
            assertThat(ffm.getMempolicy().mode()).isEqualTo(MempolicySyscalls.MPOL_DEFAULT);
        });
        worker.start();
        worker.join();
        assertThat(jna.pageSize()).isEqualTo(ffm.pageSize());
    }
}
