package io.chiplet.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a small synthetic sysfs tree: {@code packages} packages of {@code coresPerPackage} cores with
 * {@code threadsPerCore} SMT threads, numbered like Linux on x86 (first threads of all cores first, then the
 * second threads); per core an L1d, L1i and L2, an L3 shared by every {@code coresPerL3} cores, one NUMA node per
 * package. Tests then damage it to see how the reader copes. A lean tree (for thousands of CPUs) holds only the
 * topology files and node lists, like a large VM without cache directories.
 */
final class FakeSysfs
{
    static final String CPU = "sys/devices/system/cpu/";

    final Path root;
    final int packages;
    final int coresPerPackage;
    final int threadsPerCore;
    final int coresPerL3;
    final boolean lean;

    private FakeSysfs(Path root, int packages, int coresPerPackage, int threadsPerCore, int coresPerL3, boolean lean)
    {
        this.lean = lean;
        this.root = root;
        this.packages = packages;
        this.coresPerPackage = coresPerPackage;
        this.threadsPerCore = threadsPerCore;
        this.coresPerL3 = coresPerL3;
    }

    static FakeSysfs write(Path root, int packages, int coresPerPackage, int threadsPerCore, int coresPerL3)
    {
        FakeSysfs fake = new FakeSysfs(root, packages, coresPerPackage, threadsPerCore, coresPerL3, false);
        fake.writeAll();
        return fake;
    }

    static FakeSysfs writeLean(Path root, int packages, int coresPerPackage, int threadsPerCore)
    {
        FakeSysfs fake = new FakeSysfs(root, packages, coresPerPackage, threadsPerCore, coresPerPackage, true);
        fake.writeAll();
        return fake;
    }

    int cores()
    {
        return packages * coresPerPackage;
    }

    int cpus()
    {
        return cores() * threadsPerCore;
    }

    /** The CPUs of global core {@code core} (0..cores-1). */
    CpuSet coreCpus(int core)
    {
        int[] cpus = new int[threadsPerCore];
        for (int thread = 0; thread < threadsPerCore; thread++) {
            cpus[thread] = core + thread * cores();
        }
        return CpuSet.of(cpus);
    }

    CpuSet coresCpus(int firstCore, int count)
    {
        CpuSet result = CpuSet.empty();
        for (int core = firstCore; core < firstCore + count; core++) {
            result = result.union(coreCpus(core));
        }
        return result;
    }

    private void writeAll()
    {
        String all = "0-" + (cpus() - 1);
        file(CPU + "present", all);
        file(CPU + "online", all);
        file(CPU + "possible", all);
        file(CPU + "offline", "");
        String[] packageLists = new String[packages];
        for (int pkg = 0; pkg < packages; pkg++) {
            packageLists[pkg] = coresCpus(pkg * coresPerPackage, coresPerPackage).toList();
        }
        for (int cpu = 0; cpu < cpus(); cpu++) {
            int core = cpu % cores();
            int pkg = core / coresPerPackage;
            int l3 = core / coresPerL3;
            String dir = CPU + "cpu" + cpu + "/";
            String siblings = coreCpus(core).toList();
            file(dir + "topology/physical_package_id", String.valueOf(pkg));
            file(dir + "topology/core_id", String.valueOf(core % coresPerPackage));
            file(dir + "topology/thread_siblings_list", siblings);
            file(dir + "topology/core_siblings_list", packageLists[pkg]);
            if (lean) {
                continue;
            }
            file(dir + "topology/die_id", "0");
            file(dir + "topology/die_cpus_list", packageLists[pkg]);
            cache(dir + "cache/index0/", 1, "Data", "48K", siblings);
            cache(dir + "cache/index1/", 1, "Instruction", "32K", siblings);
            cache(dir + "cache/index2/", 2, "Unified", "1024K", siblings);
            cache(dir + "cache/index3/", 3, "Unified", "32768K", coresCpus(l3 * coresPerL3, coresPerL3).toList());
            file(dir + "cpufreq/cpuinfo_max_freq", "3500000");
        }
        for (int node = 0; node < packages; node++) {
            String dir = "sys/devices/system/node/node" + node + "/";
            file(dir + "cpulist", packageLists[node]);
            file(dir + "meminfo", "Node " + node + " MemTotal:       16777216 kB\nNode " + node + " MemFree:        1000 kB\n");
            StringBuilder distance = new StringBuilder();
            for (int other = 0; other < packages; other++) {
                distance.append(other == 0 ? "" : " ").append(other == node ? 10 : 32);
            }
            file(dir + "distance", distance.toString());
        }
        file("sys/devices/system/node/possible", "0-" + (packages - 1));
        file("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t" + all + "\n");
    }

    private void cache(String dir, int level, String type, String size, String shared)
    {
        file(dir + "level", String.valueOf(level));
        file(dir + "type", type);
        file(dir + "size", size);
        file(dir + "coherency_line_size", "64");
        file(dir + "shared_cpu_list", shared);
    }

    /** Writes {@code content} and a newline, as the kernel does, creating folders on the way. */
    FakeSysfs file(String relative, String content)
    {
        try {
            Path path = root.resolve(relative);
            Files.createDirectories(path.getParent());
            Files.writeString(path, content + "\n");
            return this;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    FakeSysfs delete(String relative)
    {
        try {
            Path path = root.resolve(relative);
            if (Files.isDirectory(path)) {
                try (var walk = Files.walk(path)) {
                    walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                        try {
                            Files.delete(p);
                        }
                        catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                }
            }
            else {
                Files.delete(path);
            }
            return this;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Topology read()
    {
        return SysfsTopologyReader.snapshot(root).read();
    }
}
