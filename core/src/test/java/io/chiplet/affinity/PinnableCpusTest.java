package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.TopologyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PinnableCpusTest
{
    @TempDir
    Path root;

    private void write(String relative, String text)
            throws IOException
    {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void cgroupCpusetLimitsOnlineCpus()
            throws IOException
    {
        write("sys/devices/system/cpu/present", "0-7\n");
        write("sys/devices/system/cpu/online", "0-5\n");
        write("proc/self/cgroup", "0::/job/executor\n");
        // the cgroup2 mount offers the cpuset controller (the fixture leaves out the mount's own cpuset files)
        write("sys/fs/cgroup/cgroup.controllers", "cpuset cpu memory\n");
        // The leaf has no cpuset controller; its parent's limit applies.
        write("sys/fs/cgroup/job/cpuset.cpus.effective", "2-3,5\n");
        Files.createDirectories(root.resolve("sys/fs/cgroup/job/executor"));

        PinnableCpus allowed = PinnableCpus.read(root);

        assertThat(allowed.cpus()).isEqualTo(CpuSet.parseList("2-3,5"));
        assertThat(allowed.online()).isEqualTo(CpuSet.range(0, 5));
        allowed.check(CpuSet.of(2, 5));
        assertThatThrownBy(() -> allowed.check(CpuSet.of(1)))
                .hasMessage("CPU 1 is not allowed for this process (allowed: 2-3,5); it is outside this process's cgroup cpuset or affinity mask");
        assertThatThrownBy(() -> allowed.check(CpuSet.of(3, 7)))
                .hasMessage("CPU 7 is not allowed for this process (allowed: 2-3,5); it is offline");
        assertThatThrownBy(() -> allowed.check(CpuSet.of(9, 12)))
                .hasMessage("CPUs 9,12 are not allowed for this process (allowed: 2-3,5); this machine has no such CPU");
        assertThatThrownBy(() -> allowed.check(CpuSet.empty()))
                .hasMessage("cannot pin to an empty CPU set (allowed: 2-3,5)");
    }

    @Test
    void cgroupV1CpusetLimitsOnlineCpusToo()
            throws IOException
    {
        write("sys/devices/system/cpu/online", "0-7\n");
        write("sys/fs/cgroup/cpuset/cpuset.cpus", "0-7\n");
        write("sys/fs/cgroup/cpuset/slurm/job9/cpuset.cpus", "4-5\n");
        write("proc/self/cgroup", "5:memory:/slurm\n3:cpuset:/slurm/job9\n0::/\n");

        assertThat(PinnableCpus.read(root).cpus()).isEqualTo(CpuSet.range(4, 5));
    }

    @Test
    void withoutCgroupAllOnlineCpusAreAllowed()
            throws IOException
    {
        write("sys/devices/system/cpu/online", "0-1\n");
        PinnableCpus allowed = PinnableCpus.read(root);
        assertThat(allowed.cpus()).isEqualTo(CpuSet.range(0, 1));
        assertThat(allowed.present()).isEqualTo(CpuSet.range(0, 1));
    }

    @Test
    void garbledOnlineFileIsNamed()
            throws IOException
    {
        write("sys/devices/system/cpu/online", "0-x\n");
        assertThatThrownBy(() -> PinnableCpus.read(root))
                .isInstanceOf(TopologyException.class).hasMessageStartingWith("sys/devices/system/cpu/online: expected");
    }

    @Test
    void missingOnlineFileIsNamed()
    {
        assertThatThrownBy(() -> PinnableCpus.read(root))
                .isInstanceOf(TopologyException.class).hasMessage("sys/devices/system/cpu/online: missing; expected a cpulist like 0-3");
    }

    @Test
    void liveMachineAllowsWhatProcSays()
    {
        PinnableCpus live = PinnableCpus.live();
        assertThat(live.cpus().isEmpty()).isFalse();
        assertThat(live.online().containsAll(live.cpus())).isTrue();
    }
}
