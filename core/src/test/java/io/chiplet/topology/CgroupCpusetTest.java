package io.chiplet.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CgroupCpusetTest
{
    @TempDir
    Path root;

    private void write(String relative, String content)
            throws IOException
    {
        Path path = root.resolve(relative);
        Files.createDirectories(path.getParent());
        Files.writeString(path, content);
    }

    private CgroupCpuset.Result read()
    {
        return new CgroupCpuset(new SysfsFiles(root)).read();
    }

    @Test
    void noCgroupMeansNoRestriction()
    {
        assertThat(read().cpus()).isEmpty();
        assertThat(read().unknowns()).isEmpty();
    }

    @Test
    void cgroupV2AtTheStandardMountPoint()
            throws IOException
    {
        write("sys/fs/cgroup/cpuset.cpus.effective", "0-63\n");
        write("sys/fs/cgroup/kubepods/pod1/cpuset.cpus.effective", "4-7\n");
        write("proc/self/cgroup", "0::/kubepods/pod1\n");

        CgroupCpuset.Result result = read();
        assertThat(result.cpus()).hasValue(CpuSet.range(4, 7));
        assertThat(result.file()).hasValue("sys/fs/cgroup/kubepods/pod1/cpuset.cpus.effective");
    }

    @Test
    void cgroupV2FoundThroughMountinfoWithAnEscapedPath()
            throws IOException
    {
        write("proc/self/mountinfo", """
                22 1 0:21 / /proc rw,nosuid - proc proc rw
                30 22 0:26 / /my\\040cgroups rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate
                """);
        write("my cgroups/cgroup.controllers", "cpu io memory cpuset pids\n");
        write("my cgroups/job/cpuset.cpus.effective", "1,3\n");
        write("proc/self/cgroup", "0::/job\n");

        assertThat(read().cpus()).hasValue(CpuSet.of(1, 3));
    }

    @Test
    void cgroupV2WithoutTheCpusetControllerIsIgnored()
            throws IOException
    {
        write("proc/mounts", "none /cgroup/unified cgroup2 rw 0 0\n");
        write("cgroup/unified/cgroup.controllers", "cpu memory\n");
        write("proc/self/cgroup", "0::/\n");

        assertThat(read().cpus()).isEmpty();
    }

    @Test
    void cgroupV1CpusetLineOfProcSelfCgroup()
            throws IOException
    {
        write("proc/mounts", "cgroup /sys/fs/cgroup/cpuset,cpuacct cgroup rw,nosuid,cpuset,cpuacct 0 0\n");
        write("sys/fs/cgroup/cpuset,cpuacct/slurm/job9/cpuset.cpus", "8-11\n");
        write("proc/self/cgroup", "12:memory:/slurm\n3:cpuset,cpuacct:/slurm/job9\n0::/user.slice\n");

        assertThat(read().cpus()).hasValue(CpuSet.range(8, 11));
    }

    @Test
    void cgroupV2WithoutItsOwnCpusetTakesTheNearestAncestorsAndAGarbledOneIsAnError()
            throws IOException
    {
        // the leaf's parent does not enable the cpuset controller: no file in the leaf, the nearest ancestor's limit applies
        write("sys/fs/cgroup/cpuset.cpus.effective", "0-63\n");
        write("sys/fs/cgroup/kubepods/cpuset.cpus.effective", "8-15\n");
        Files.createDirectories(root.resolve("sys/fs/cgroup/kubepods/pod1/container"));
        write("proc/self/cgroup", "0::/kubepods/pod1/container\n");
        CgroupCpuset.Result result = read();
        assertThat(result.cpus()).hasValue(CpuSet.range(8, 15));
        assertThat(result.file()).hasValue("sys/fs/cgroup/kubepods/cpuset.cpus.effective");
        assertThat(result.unknowns()).isEmpty();

        // an empty file sets no limit of its own either
        write("sys/fs/cgroup/kubepods/pod1/cpuset.cpus.effective", "\n");
        assertThat(read().cpus()).hasValue(CpuSet.range(8, 15));

        write("sys/fs/cgroup/kubepods/pod1/container/cpuset.cpus.effective", "three\n");
        assertThatThrownBy(this::read)
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("sys/fs/cgroup/kubepods/pod1/container/cpuset.cpus.effective: expected a cpulist");
    }

    @Test
    void cgroupV2AtTheStandardMountPointKnownByItsControllers()
            throws IOException
    {
        // as for a cgroup2 mount found in the mount table, cgroup.controllers listing cpuset is enough
        write("sys/fs/cgroup/cgroup.controllers", "cpu cpuset memory\n");
        write("sys/fs/cgroup/job/cpuset.cpus.effective", "2-3\n");
        write("proc/self/cgroup", "0::/job\n");

        assertThat(read().cpus()).hasValue(CpuSet.range(2, 3));
    }

    @Test
    void cgroupV2WithNoCpusetUpToTheMountIsAnUnknown()
            throws IOException
    {
        write("proc/mounts", "none /cgroup/unified cgroup2 rw 0 0\n");
        write("cgroup/unified/cgroup.controllers", "cpuset memory\n");
        Files.createDirectories(root.resolve("cgroup/unified/gone"));
        write("proc/self/cgroup", "0::/gone\n");

        CgroupCpuset.Result result = read();
        assertThat(result.cpus()).isEmpty();
        assertThat(result.unknowns()).containsExactly(
                "cgroup cpuset: no non-empty cpuset.cpus.effective in cgroup/unified/gone/ or any parent up to cgroup/unified/; assuming no restriction");
    }

    @Test
    void readFromAFilesystemRootAsAllowedCpusDoes()
            throws IOException
    {
        write("sys/fs/cgroup/cpuset.cpus.effective", "0-3\n");
        write("proc/self/cgroup", "0::/\n");

        assertThat(CgroupCpuset.read(root).cpus()).hasValue(CpuSet.range(0, 3));
    }

    @Test
    void cgroupV1CpusetFileMissingIsAnUnknown()
            throws IOException
    {
        write("sys/fs/cgroup/cpuset/cpuset.cpus", "0-7\n");
        write("proc/self/cgroup", "4:cpuset:/gone\n");

        assertThat(read().cpus()).isEmpty();
        assertThat(read().unknowns()).containsExactly("cgroup cpuset: sys/fs/cgroup/cpuset/gone/cpuset.cpus is missing; assuming no restriction");
    }

    @Test
    void cgroupV2MemoryNodesComeFromCpusetMemsEffectiveTheSameWayAndAGarbledOneIsAnError()
            throws IOException
    {
        write("sys/fs/cgroup/cpuset.cpus.effective", "0-63\n");
        write("sys/fs/cgroup/cpuset.mems.effective", "0-3\n");
        write("sys/fs/cgroup/kubepods/cpuset.mems.effective", "1,3\n");
        Files.createDirectories(root.resolve("sys/fs/cgroup/kubepods/pod1"));
        write("proc/self/cgroup", "0::/kubepods/pod1\n");

        // the leaf has no file: the nearest ancestor's limit applies, as for CPUs
        CgroupCpuset.MemoryResult result = new CgroupCpuset(new SysfsFiles(root)).readMemoryNodes();
        assertThat(result.nodes()).hasValueSatisfying(nodes -> assertThat(nodes).containsExactly(1, 3));
        assertThat(result.file()).hasValue("sys/fs/cgroup/kubepods/cpuset.mems.effective");
        assertThat(result.unknowns()).isEmpty();

        write("sys/fs/cgroup/kubepods/pod1/cpuset.mems.effective", "node one\n");
        assertThatThrownBy(() -> new CgroupCpuset(new SysfsFiles(root)).readMemoryNodes())
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("sys/fs/cgroup/kubepods/pod1/cpuset.mems.effective: expected a cpulist");
        // the CPUs are read on their own: a broken mems file does not hide them
        assertThat(read().cpus()).hasValue(CpuSet.range(0, 63));
    }

    @Test
    void cgroupV1MemoryNodesComeFromCpusetMems()
            throws IOException
    {
        write("proc/mounts", "cgroup /sys/fs/cgroup/cpuset,cpuacct cgroup rw,nosuid,cpuset,cpuacct 0 0\n");
        write("sys/fs/cgroup/cpuset,cpuacct/slurm/job9/cpuset.cpus", "8-11\n");
        write("sys/fs/cgroup/cpuset,cpuacct/slurm/job9/cpuset.mems", "2\n");
        write("proc/self/cgroup", "3:cpuset,cpuacct:/slurm/job9\n");

        CgroupCpuset.MemoryResult result = new CgroupCpuset(new SysfsFiles(root)).readMemoryNodes();
        assertThat(result.nodes()).hasValueSatisfying(nodes -> assertThat(nodes).containsExactly(2));
        assertThat(result.file()).hasValue("sys/fs/cgroup/cpuset,cpuacct/slurm/job9/cpuset.mems");
    }

    @Test
    void noCgroupMeansNoMemoryNodeLimit()
    {
        CgroupCpuset.MemoryResult result = new CgroupCpuset(new SysfsFiles(root)).readMemoryNodes();
        assertThat(result.nodes()).isEmpty();
        assertThat(result.unknowns()).isEmpty();
    }
}
