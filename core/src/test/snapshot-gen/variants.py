#!/usr/bin/env python3
"""Snapshots of the kinds of sysfs that broke discovery (issue 15), derived from gen_snapshots' machines
or written here from scratch (s390, POWER8). Same conventions as gen_snapshots.py: NAME.tar.bz2 unpacks
to NAME/{sys,proc}, reproducible byte for byte; regen.sh writes hwloc's reading of each beside it.

usage: variants.py OUTDIR [NAME...]
"""
import os
import re
import sys
from collections import OrderedDict

import gen_snapshots as g
from gen_snapshots import CPU, NODE, Cache, Cpu, Machine, cpulist, cpumask


def derived(base, name):
    tree = g.render(g.MACHINES[base]())
    tree.root = name
    return tree


def drop(tree, pattern):
    rx = re.compile(pattern)
    for path in [p for p in tree.files if rx.search(p)]:
        del tree.files[path]


def mems_allowed(tree, nodes):
    """proc/self/status as the kernel prints it for a task in the root cpuset: Mems_allowed lists every node with
    memory (N_MEMORY), CPU-less ones included, as cpuset.mems of the root cpuset follows memory hotplug."""
    text = tree.files["proc/self/status"].decode("ascii")
    text = re.sub(r"Mems_allowed:\t[^\n]*", "Mems_allowed:\t" + cpumask(nodes, 1024), text)
    text = re.sub(r"Mems_allowed_list:\t[^\n]*", "Mems_allowed_list:\t" + cpulist(nodes), text)
    tree.write("proc/self/status", text)


def old_kernel_masks_only():
    """A 4.x-era dump of the NPS4 EPYC: no package_cpus/core_cpus/die_*/cluster_* (5.x additions), and no
    list forms at all (node cpulist, *_list, shared_cpu_list): every set must come from its mask."""
    t = derived("2xepyc7763-nps4", "old-kernel-masks-only")
    drop(t, r"/topology/(package_cpus|core_cpus|die_|cluster_)")
    drop(t, r"_list$")
    drop(t, r"/node\d+/cpulist$")
    return t


def trailing_nul():
    """Graviton3 whose single-value files end in a NUL after the newline, some followed by junk, as a real dump
    held "0-63\\n\\0"; the values themselves are unchanged."""
    t = derived("graviton3", "trailing-nul")
    rx = re.compile(r"(/topology/|/cache/index\d/|/node\d+/(cpulist|cpumap)$|cpu/(online|present|possible)$|cpu_capacity$)")
    for k, path in enumerate(sorted(t.files)):
        if rx.search(path):
            t.files[path] = t.files[path] + (b"\0" if k % 2 else b"\0\0garbage\n")
    return t


def partial_cpufreq():
    """A two-core arm64 board whose cpufreq driver registered CPU 0 only: no cpu_capacity, one max frequency.
    hwloc makes no second kind of the CPU without data; neither may we."""
    cpus = [Cpu(k, 0, k, cluster_id=0, caches=[
        Cache(1, "Data", 32, 4, ("L1d", k)), Cache(1, "Instruction", 32, 4, ("L1i", k)),
        Cache(2, "Unified", 512, 8, ("L2",))]) for k in range(2)]
    cpus[0].max_khz, cpus[0].min_khz = 1800000, 600000
    nodes = OrderedDict([(0, ({0, 1}, 3_900_000))])
    info = g.arm_cpuinfo(g.N1_FEATURES, "0x41", "0x0", "0xd08", 3, 108.00)
    m = Machine("partial-cpufreq", "aarch64", cpus, nodes, [[10]], info, kernel="6.1.0-18-arm64",
                kernel_max=4095, cpu0_online_file=True, die_files=False, hugepages=False,
                cpufreq_driver="cpufreq-dt")
    return g.render(m)


def cpuless_hbm_cxl():
    """Xeon Max-like: the SNC-off 8480 layout with HBM in flat mode (one CPU-less 64 GiB node per socket,
    nodes 2 and 3) and a CXL memory expander (CPU-less node 4 behind socket 0). HMAT gives each
    CPU-less node its initiators (access0/initiators/nodeN); the kernel's memory tiers put HBM and DRAM
    in the default tier and CXL in a slower one; HMAT bandwidths say which is which."""
    t = derived("2xspr8480-snc-off", "cpuless-hbm-cxl")
    n = 224
    hbm_kb = 64 * g.GiB_KB - 12_000
    cxl_kb = 128 * g.GiB_KB - 30_000
    # distances: 0,1 DRAM; 2,3 HBM; 4 CXL (as the SLIT of such machines: HBM 13 from its socket, CXL 14)
    dist = [[10, 21, 13, 23, 14],
            [21, 10, 23, 13, 24],
            [13, 23, 10, 23, 16],
            [23, 13, 23, 10, 26],
            [14, 24, 16, 26, 10]]
    initiator = {0: 0, 1: 1, 2: 0, 3: 1, 4: 0}
    bandwidth = {0: 262144, 1: 262144, 2: 1048576, 3: 1048576, 4: 65536}
    latency = {0: 110, 1: 110, 2: 130, 3: 130, 4: 250}
    for node in range(5):
        nd = "%s/node%d" % (NODE, node)
        t.write(nd + "/distance", " ".join(str(x) for x in dist[node]))
        if node >= 2:
            t.write(nd + "/cpulist", "")
            t.write(nd + "/cpumap", cpumask(set(), n))
            t.write(nd + "/meminfo", g.node_meminfo(node, hbm_kb if node < 4 else cxl_kb))
        acc = nd + "/access0/initiators"
        t.link(acc + "/node%d" % initiator[node], "../../../node%d" % initiator[node])
        t.write(acc + "/read_bandwidth", str(bandwidth[node]))
        t.write(acc + "/write_bandwidth", str(bandwidth[node]))
        t.write(acc + "/read_latency", str(latency[node]))
        t.write(acc + "/write_latency", str(latency[node]))

    t.write(NODE + "/possible", "0-4")
    t.write(NODE + "/online", "0-4")
    t.write(NODE + "/has_memory", "0-4")
    t.write(NODE + "/has_normal_memory", "0-4")
    t.write(NODE + "/has_cpu", "0-1")
    mems_allowed(t, range(5))
    tiers = "sys/devices/virtual/memory_tiering"
    t.write(tiers + "/memory_tier4/nodelist", "0-3")
    t.write(tiers + "/memory_tier22/nodelist", "4")
    return t


def numa_every_node_all_cpus():
    """The NPS4 EPYC with a broken kernel/firmware that lists every CPU in every one of the 8 nodes."""
    t = derived("2xepyc7763-nps4", "numa-every-node-all-cpus")
    for node in range(8):
        nd = "%s/node%d" % (NODE, node)
        t.write(nd + "/cpulist", cpulist(range(256)))
        t.write(nd + "/cpumap", cpumask(range(256), 256))
    return t


def numa_overlap():
    """The NPS1 EPYC whose node 1 also claims the first CCD of node 0 (CPUs 0-7,128-135)."""
    t = derived("2xepyc7763-nps1", "numa-overlap")
    nd = "%s/node1" % NODE
    cpus = set(range(64, 128)) | set(range(192, 256)) | set(range(0, 8)) | set(range(128, 136))
    t.write(nd + "/cpulist", cpulist(cpus))
    t.write(nd + "/cpumap", cpumask(cpus, 256))
    return t


def l3_overlap():
    """The NPS1 EPYC whose CPU 8 (first core of the second CCD) claims an L3 shared with CPUs 0-15,128-143,
    overlapping both the first CCD's L3 and its own CCD's."""
    t = derived("2xepyc7763-nps1", "l3-overlap")
    ix = "%s/cpu8/cache/index3" % CPU
    cpus = set(range(0, 16)) | set(range(128, 144))
    t.write(ix + "/shared_cpu_list", cpulist(cpus))
    t.write(ix + "/shared_cpu_map", cpumask(cpus, 256))
    return t


def s390_cpuinfo(m, c):
    return ""


def s390_books_drawers():
    """IBM z15 LPAR: 2 drawers x 2 books x 2 chips (packages) x 2 cores x SMT2 = 32 CPUs. The kernel writes
    book_id/book_siblings and drawer_id/drawer_siblings; L1 and L2 (split I/D) are per core; the shared L3
    (per chip) and L4 (per drawer) are not in sysfs. No die or cluster (die_id -1, its CPUs the CPU itself)."""
    cpus = []
    num = 0
    for drawer in range(2):
        for book in range(2):
            for chip in range(2):
                package = (drawer * 2 + book) * 2 + chip
                for core in range(2):
                    core_id = package * 2 + core
                    for thread in range(2):
                        caches = [Cache(1, "Data", 128, 8, ("L1d", core_id), line=256),
                                  Cache(1, "Instruction", 128, 8, ("L1i", core_id), line=256),
                                  Cache(2, "Data", 4096, 8, ("L2d", core_id), line=256),
                                  Cache(2, "Instruction", 4096, 8, ("L2i", core_id), line=256)]
                        cpu = Cpu(num, package, core_id, caches=caches)
                        cpu.book, cpu.drawer = drawer * 2 + book, drawer
                        cpus.append(cpu)
                        num += 1
    nodes = OrderedDict([(0, (set(range(32)), 64 * g.GiB_KB - 400_000))])

    def info(m, c):
        return ""
    m = Machine("s390-books-drawers", "s390x", cpus, nodes, [[10]], info, kernel="6.1.0-18-s390x",
                kernel_max=511, cpu0_online_file=True, die_files=False, hugepages=False,
                cpufreq_driver="none")
    t = g.render(m)
    n = m.nr_cpu_ids
    for c in cpus:
        tp = "%s/cpu%d/topology" % (CPU, c.num)
        for level, key in (("book", c.book), ("drawer", c.drawer)):
            sib = {d.num for d in cpus if getattr(d, level) == key}
            t.write(tp + "/%s_id" % level, str(key))
            t.write(tp + "/%s_siblings_list" % level, cpulist(sib))
            t.write(tp + "/%s_siblings" % level, cpumask(sib, n))
        t.write(tp + "/die_id", "-1")
        t.write(tp + "/die_cpus_list", str(c.num))
        t.write(tp + "/die_cpus", cpumask({c.num}, n))
    # s390 /proc/cpuinfo: one header, then a line per CPU
    lines = ["vendor_id       : IBM/S390", "# processors    : 32", "bogomips per cpu: 3241.00",
             "max thread id   : 1", "features\t: esan3 zarch stfle msa ldisp eimm dfp edat etf3eh highgprs te vx vxd vxe gs vxe2 vxp sort dflt sie"]
    lines += ["processor %d: version = 00,  identification = 0A1B2C,  machine = 8561" % k for k in range(32)]
    t.write("proc/cpuinfo", "\n".join(lines))
    return t


def power_cpus(chips, threads, l1d_kib, l3_kib, l3_ways, max_khz, min_khz):
    """POWER CPUs numbered chip by chip, core by core, thread by thread: chips lists (chip-id, [core_id...]); per core an
    8-way L1d, a 32K L1i, a 512K L2 and an L3 (per core, as 4.x kernels report them), 128-byte lines."""
    cpus = []
    for chip, core_ids in chips:
        for core_id in core_ids:
            for thread in range(threads):
                caches = [Cache(1, "Data", l1d_kib, 8, ("L1d", core_id), line=128),
                          Cache(1, "Instruction", 32, 8, ("L1i", core_id), line=128),
                          Cache(2, "Unified", 512, 8, ("L2", core_id), line=128),
                          Cache(3, "Unified", l3_kib, l3_ways, ("L3", core_id), line=128)]
                cpus.append(Cpu(len(cpus), chip, core_id, caches=caches, max_khz=max_khz, min_khz=min_khz))
    return cpus


def power8():
    """POWER8 PowerNV (4.x kernel, no package_cpus/core_cpus/die/cluster files): 2 chips with chip-ids 0 and 8
    (physical_package_id), 10 cores each, SMT8 = 160 CPUs; core_id the hardware core number (sparse);
    L1d 64K, L1i 32K, L2 512K and L3 8M per core; NUMA nodes 0 and 8 (sparse ids), SLIT 10/40."""
    cpus = power_cpus([(chip, [chip * 32 + core * 8 + 32 for core in range(10)]) for chip in (0, 8)], 8, 64, 8192, 8,
                      3491000, 2061000)
    nodes = OrderedDict([(0, (set(range(80)), 128 * g.GiB_KB - 900_000)), (8, (set(range(80, 160)), 128 * g.GiB_KB - 300_000))])

    def info(m, c):
        return "processor\t: %d\ncpu\t\t: POWER8 (raw), altivec supported\nclock\t\t: 3491.000000MHz\nrevision\t: 2.1 (pvr 004d 0201)\n\n" % c.num
    m = Machine("power8", "ppc64le", cpus, nodes, [[10, 40], [40, 10]], info, kernel="4.15.0-213-generic",
                kernel_max=2047, cpu0_online_file=True, die_files=False, hugepages=False,
                cpufreq_driver="powernv-cpufreq")
    t = g.render(m)
    drop(t, r"/topology/(package_cpus|core_cpus)")
    # the 4.15 kernel has no cluster files; cache "id" files came later on POWER too
    drop(t, r"/cache/index\d/id$")
    return t


def arm_midr_only():
    """An RK3588-like board whose device tree gives no capacity-dmips-mhz and whose cpufreq driver is not loaded:
    4 Cortex-A55 (CPUs 0-3, MIDR 0x412fd050) and 4 Cortex-A76 (CPUs 4-7, MIDR 0x414fd0b0), one cluster each,
    a 3 MiB L3 over all eight. The only evidence of two kinds of core is each CPU's MIDR
    (regs/identification/midr_el1, and "CPU part" in /proc/cpuinfo)."""
    midr = {k: (0x412FD050 if k < 4 else 0x414FD0B0) for k in range(8)}
    cpus = [Cpu(k, 0, k, cluster_id=0 if k < 4 else 1, die_id=-1, caches=[
        Cache(1, "Data", 32 if k < 4 else 64, 4, ("L1d", k)), Cache(1, "Instruction", 32 if k < 4 else 64, 4, ("L1i", k)),
        Cache(2, "Unified", 128 if k < 4 else 512, 4 if k < 4 else 8, ("L2", k)),
        Cache(3, "Unified", 3072, 12, ("L3",))]) for k in range(8)]
    nodes = OrderedDict([(0, (set(range(8)), 16 * g.GiB_KB - 500_000))])

    def info(m, c):
        v = midr[c.num]
        return ("processor\t: %d\nBogoMIPS\t: 48.00\nFeatures\t: %s\nCPU implementer\t: 0x41\n"
                "CPU architecture: 8\nCPU variant\t: 0x%x\nCPU part\t: 0x%03x\nCPU revision\t: %d\n\n"
                % (c.num, g.N1_FEATURES, (v >> 20) & 0xF, (v >> 4) & 0xFFF, v & 0xF))
    m = Machine("arm-midr-only", "aarch64", cpus, nodes, [[10]], info, kernel="6.1.0-18-arm64",
                kernel_max=4095, cpu0_online_file=True, die_files=False, hugepages=False,
                cpufreq_driver="none")
    t = g.render(m)
    drop(t, r"/cpufreq")
    for k in range(8):
        ident = "%s/cpu%d/regs/identification" % (CPU, k)
        t.write(ident + "/midr_el1", "0x%016x" % midr[k])
        t.write(ident + "/revidr_el1", "0x%016x" % 0)
    return t


def rewrite_masks(tree, nbits):
    """Rewrites every cpumask file over nbits bits: kernels without CPUMASK_OFFSTACK print masks over NR_CPUS
    bits (nr_cpumask_bits), not nr_cpu_ids."""
    rx = re.compile(r"/(thread_siblings|core_siblings|shared_cpu_map|cpumap|local_cpus)$")
    for path in [p for p in tree.files if rx.search(p)]:
        value = int(tree.files[path].decode("ascii").strip().replace(",", ""), 16)
        tree.write(path, cpumask({bit for bit in range(nbits) if value >> bit & 1}, nbits))


def kernel_build(tree, version, build):
    """proc/version and hwloc-nofile-info's OSVersion of a kernel other than the Debian 6.1 one render() writes."""
    tree.write("proc/version", version + " " + build)
    tree.write("proc/hwloc-nofile-info", re.sub(r"OSVersion: [^\n]*", "OSVersion: " + build, tree.files["proc/hwloc-nofile-info"].decode("ascii")))


def gpu_coherent_memory():
    """POWER9 PowerNV with an NVLink2 GPU whose memory the kernel onlines as a CPU-less NUMA node (an AC922-like
    layout, cut down): 2 chips (chip-ids 0 and 8, nodes 0 and 8) of 4 SMT4 cores, 4.14 kernel (no package_cpus,
    core_cpus, die or cluster files), per-core L2 and L3 as that kernel reports them; a Tesla V100 at PCI
    0004:04:00.0 behind chip 0 whose 16 GiB is node 252 (empty cpulist, ZONE_MOVABLE so not in has_normal_memory).
    The NVIDIA driver names the node in /proc/driver/nvidia/gpus/0004:04:00.0/numa_status; the GPU's PCI device
    gives its local CPUs (local_cpus, local_cpulist). hwloc drops node 252 unless HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES=1,
    and then calls it GPUMemory local to chip 0."""
    cpus = power_cpus([(chip, [chip * 256 + slot * 4 for slot in (0, 1, 4, 5)]) for chip in (0, 8)], 4, 32, 10240, 20,
                      3800000, 2300000)
    gpu_kb = 16 * g.GiB_KB - 253_952
    nodes = OrderedDict([(0, (set(range(16)), 256 * g.GiB_KB - 1_900_000)), (8, (set(range(16, 32)), 256 * g.GiB_KB - 600_000)),
                         (252, (set(), gpu_kb))])
    distances = [[10, 40, 80], [40, 10, 80], [80, 80, 10]]

    def info(m, c):
        return "processor\t: %d\ncpu\t\t: POWER9, altivec supported\nclock\t\t: 3800.000000MHz\nrevision\t: 2.2 (pvr 004e 1202)\n\n" % c.num
    m = Machine("gpu-coherent-memory", "ppc64le", cpus, nodes, distances, info, kernel="4.14.0-115.el7a.ppc64le",
                kernel_max=2047, cpu0_online_file=True, die_files=False, hugepages=False,
                cpufreq_driver="powernv-cpufreq")
    t = g.render(m)
    drop(t, r"/topology/(package_cpus|core_cpus)")
    drop(t, r"/cache/index\d/id$")
    n = m.nr_cpu_ids
    t.write(NODE + "/has_normal_memory", "0,8")
    t.write("proc/cpuinfo", t.files["proc/cpuinfo"].decode("ascii").rstrip("\n") + "\n\n"
            "timebase\t: 512000000\nplatform\t: PowerNV\nmodel\t\t: 8335-GTH\nmachine\t\t: PowerNV 8335-GTH\n"
            "firmware\t: OPAL\nMMU\t\t: Radix\n")
    t.write("proc/hwloc-nofile-info", t.files["proc/hwloc-nofile-info"].decode("ascii").replace("PageSize: 4096", "PageSize: 65536"))
    kernel_build(t, "Linux version 4.14.0-115.el7a.ppc64le (mockbuild@ppc-046.build.eng.bos.redhat.com) "
                 "(gcc version 4.8.5 20150623 (Red Hat 4.8.5-36) (GCC))", "#1 SMP Tue Sep 25 12:28:39 EDT 2018")
    bus = "0004:04:00.0"
    gpu = "proc/driver/nvidia/gpus/" + bus
    # nv-procfs.c: the node, its state, and the memory blocks the driver onlined
    t.write(gpu + "/numa_status", "Node: 252\nStatus: online\nMemory block size: 0x10000000\n")
    t.write(gpu + "/information", "Model: \t\t Tesla V100-SXM2-16GB\nIRQ:   \t\t 475\nGPU UUID: \t GPU-4c1e0f4a-6a2b-7d1c-2b8e-5f0e1a2b3c4d\n"
            "Video BIOS: \t 88.00.80.00.01\nBus Type: \t PCIe\nDMA Size: \t 47 bits\nDMA Mask: \t 0x7fffffffffff\n"
            "Bus Location: \t %s\nDevice Minor: \t 0\nBlacklisted:\t No" % bus)
    t.write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX ppc64le Kernel Module  418.67  Sat Apr  6 03:07:24 CDT 2019\n"
            "GCC version:  gcc version 4.8.5 20150623 (Red Hat 4.8.5-36) (GCC)")
    device = "sys/devices/pci0004:00/0004:00:00.0/0004:01:00.0/0004:02:08.0/" + bus
    t.link("sys/bus/pci/devices/" + bus, "../../../devices/pci0004:00/0004:00:00.0/0004:01:00.0/0004:02:08.0/" + bus)
    t.write(device + "/local_cpus", cpumask(range(16), n))
    t.write(device + "/local_cpulist", cpulist(range(16)))
    t.write(device + "/numa_node", "0")
    t.write(device + "/vendor", "0x10de")
    t.write(device + "/device", "0x1db1")
    t.write(device + "/class", "0x030200")
    return t


def ia64_montecito():
    """HP Integrity rx3600-like: 2 Dual-Core Itanium 2 9050 (Montecito) sockets, 2 cores each, 2 threads per core,
    one NUMA node; Debian 6 kernel 2.6.32 (ia64, NR_CPUS 64, no CPUMASK_OFFSTACK, so masks are 64 bits wide).
    Caches per core: L1d and L1i 16K, L2d 256K, L2i 1M, L3 12M (arch/ia64/kernel/topology.c: index order L1d, L1i,
    L2d, L2i, L3; level, type, size, coherency_line_size, ways_of_associativity, number_of_sets and shared_cpu_map
    only, no shared_cpu_list, id or physical_line_partition). Firmware without PAL_CACHE_SHARED_INFO leaves every
    shared_cpu_map empty (all zeros); hwloc then takes the core's CPUs (thread_siblings). topology/ has
    physical_package_id, core_id, core_siblings[_list], thread_siblings[_list] only. CPUs are numbered first
    threads first: 0-3 are thread 0 of socket 0 core 0, socket 0 core 1, socket 1 core 0, socket 1 core 1; 4-7
    their second threads (an assumption: the MADT order varies by firmware)."""
    cpus = []
    for thread in range(2):
        for socket in range(2):
            for core in range(2):
                num = thread * 4 + socket * 2 + core
                key = (socket, core)
                caches = [Cache(1, "Data", 16, 4, ("L1d", key)), Cache(1, "Instruction", 16, 4, ("L1i", key)),
                          Cache(2, "Data", 256, 8, ("L2d", key), line=128), Cache(2, "Instruction", 1024, 8, ("L2i", key), line=128),
                          Cache(3, "Unified", 12288, 12, ("L3", key), line=128)]
                cpus.append(Cpu(num, socket, core, caches=caches))
    nodes = OrderedDict([(0, (set(range(8)), 16 * g.GiB_KB - 420_000))])

    def info(m, c):
        return ("processor  : %d\nvendor     : GenuineIntel\narch       : IA-64\nfamily     : 32\nmodel      : 0\n"
                "model name : Dual-Core Intel(R) Itanium(R) 2 Processor 9050\nrevision   : 7\narchrev    : 0\n"
                "features   : branchlong, 16-byte atomic ops\ncpu number : 0\ncpu regs   : 4\ncpu MHz    : 1598.000\n"
                "itc MHz    : 399.000000\nBogoMIPS   : 3186.68\nsiblings   : 4\nphysical id: %d\ncore id    : %d\n"
                "thread id  : %d\n\n" % (c.num, c.package, c.core_id, c.num // 4))
    m = Machine("ia64-montecito", "ia64", cpus, nodes, [[10]], info, kernel="2.6.32-5-mckinley",
                kernel_max=63, cpu0_online_file=False, die_files=False, hugepages=False, cpufreq_driver="none")
    t = g.render(m)
    drop(t, r"/topology/(package_cpus|core_cpus)")
    drop(t, r"/cache/index\d/shared_cpu_list$")
    for path in [p for p in t.files if p.endswith("/shared_cpu_map")]:
        t.write(path, cpumask(set(), 64))
    rewrite_masks(t, 64)
    t.write("proc/self/status", t.files["proc/self/status"].decode("ascii").replace(
        "Cpus_allowed:\tff\n", "Cpus_allowed:\t%s\n" % cpumask(range(8), 64)))
    kernel_build(t, "Linux version 2.6.32-5-mckinley (Debian 2.6.32-48squeeze6) (dannf@debian.org) "
                 "(gcc version 4.3.5 (Debian 4.3.5-4) )", "#1 SMP Mon Feb 25 00:27:24 UTC 2013")
    # no cgroup hierarchy mounted on this 2.6.32 system: no cgroup2 line, an empty /proc/self/cgroup
    t.write("proc/mounts", "\n".join(line for line in t.files["proc/mounts"].decode("ascii").splitlines() if "cgroup" not in line and "bpf" not in line))
    t.write("proc/self/mountinfo", "\n".join(line for line in t.files["proc/self/mountinfo"].decode("ascii").splitlines() if "cgroup" not in line))
    t.files["proc/self/cgroup"] = b""
    t.write("proc/self/cpuset", "/")
    t.write("proc/hwloc-nofile-info", t.files["proc/hwloc-nofile-info"].decode("ascii").replace("PageSize: 4096", "PageSize: 16384"))
    return t



# --------------------------------------------------------------------------------------
# Issue 26: the remaining kinds where the project and hwloc read a machine differently
# --------------------------------------------------------------------------------------


def drop_links(tree, pattern):
    rx = re.compile(pattern)
    for path in [p for p in tree.links if rx.search(p)]:
        del tree.links[path]


def epyc7313p(name, offline=()):
    """A plain EPYC 7313P host (16 Zen 3 cores in 4 CCDs of 4, SMT, CPUs 0-15 + siblings 16-31, one node, 4 x 32 MiB L3),
    with the CPUs in `offline` taken offline (the kernel keeps their cpuN directory and online file, drops topology/ and
    cache/ and takes them out of their node's cpulist)."""
    cpus = g.zen3_cpus(1, 4, 4, max_khz=3000000)
    for c in cpus:
        c.online = c.num not in offline
    nodes = OrderedDict([(0, ({c.num for c in cpus}, 131_694_592))])
    info = g.x86_cpuinfo("AuthenticAMD", 25, 1, "AMD EPYC 7313P 16-Core Processor", 1, "0xa0011d1", 3000.0, 512, g.AMD_FLAGS,
                         g.AMD_BUGS, 5988.92, 16, "48 bits physical, 48 bits virtual", "ts ttp tm hwpstate cpb eff_freq_ro [13] [14]",
                         32, 16, tlb="2560 4K pages")
    return Machine(name, "x86_64", cpus, nodes, [[10]], info, cache_extra={"physical_line_partition": "1"},
                   cpufreq_driver="acpi-cpufreq")


def per_cpu_online():
    """The EPYC 7313P with CPUs 5, 12 and 21 offline (core 5 with both its threads, and one thread of core 12) in a dump
    without the global cpu/online, offline, present and possible lists: only each CPU's cpuN/online says which run
    (cpu0 has none on x86: it cannot be taken offline). hwloc's 16em64t-4s2c2t-offlines test snapshot, from a 2.6-era
    kernel, is of this kind."""
    t = g.render(epyc7313p("per-cpu-online", offline={5, 12, 21}))
    drop(t, r"^sys/devices/system/cpu/(online|offline|present|possible)$")
    return t


def s390_no_socket_id():
    """The z15 LPAR of s390-books-drawers as a kernel before s390's socket_id reaches sysfs: physical_package_id is
    the generic -1 on every CPU while core_siblings still names the CPUs of each chip (hwloc's 20s390-2g2g2s4co test
    snapshot shows the same). hwloc makes each core_siblings set a package, of unknown index."""
    t = s390_books_drawers()
    t.root = "s390-no-socket-id"
    for path in [p for p in t.files if p.endswith("/topology/physical_package_id")]:
        t.write(path, "-1")
    return t


def power_lpar_no_chip_id():
    """POWER8 PowerVM LPAR (4.15 kernel): 12 SMT8 cores (96 CPUs) over 2 nodes of 6 cores. PowerVM gives the partition
    no ibm,chip-id, so physical_package_id is -1 on every CPU, and without a chip the kernel builds core_siblings from
    the CPUs sharing an L2 (one core on POWER8): hwloc's 256ppc-8n8s4t test snapshot (POWER7 LPAR) shows both. hwloc
    2.9 reads no device tree (its POWER device-tree code never read ibm,chip-id, was off by default from 2.1, gone in 2.3): it makes a
    package of each core_siblings set, of unknown index. L1d 64K, L1i 32K, L2 512K and L3 8M per core."""
    cpus = power_cpus([(node, [node * 6 + core for core in range(6)]) for node in (0, 1)], 8, 64, 8192, 8, 3690000, 2061000)
    nodes = OrderedDict([(0, (set(range(48)), 64 * g.GiB_KB - 700_000)), (1, (set(range(48, 96)), 64 * g.GiB_KB - 250_000))])

    def info(m, c):
        return "processor\t: %d\ncpu\t\t: POWER8 (architected), altivec supported\nclock\t\t: 3690.000000MHz\nrevision\t: 2.1 (pvr 004b 0201)\n\n" % c.num
    m = Machine("power-lpar-no-chip-id", "ppc64le", cpus, nodes, [[10, 20], [20, 10]], info, kernel="4.15.0-213-generic",
                kernel_max=2047, cpu0_online_file=True, die_files=False, hugepages=False, cpufreq_driver="none")
    t = g.render(m)
    drop(t, r"/topology/(package_cpus|core_cpus)")
    drop(t, r"/cache/index\d/id$")
    drop(t, r"/cpufreq")
    drop_links(t, r"/cpufreq$")
    n = m.nr_cpu_ids
    for c in cpus:
        tp = "%s/cpu%d/topology" % (CPU, c.num)
        core = {d.num for d in cpus if d.core_key == c.core_key}
        t.write(tp + "/physical_package_id", "-1")
        t.write(tp + "/core_siblings_list", cpulist(core))
        t.write(tp + "/core_siblings", cpumask(core, n))
    t.write("proc/cpuinfo", t.files["proc/cpuinfo"].decode("ascii").rstrip("\n") + "\n\n"
            "timebase\t: 512000000\nplatform\t: pSeries\nmodel\t\t: IBM,8286-42A\nmachine\t\t: CHRP IBM,8286-42A\nMMU\t\t: Hash\n")
    t.write("proc/hwloc-nofile-info", t.files["proc/hwloc-nofile-info"].decode("ascii").replace("PageSize: 4096", "PageSize: 65536"))
    return t


def ia64_madison_shared_ids():
    """4 single-core Itanium 2 (Madison, 9 MiB L3) on 2 node boards of an SGI Altix-like machine, 2.6.16 kernel. Without
    PAL logical-to-physical information the kernel makes socket_id the platform id << 8, the same for both sockets of a
    board (0, 0, 512, 512), while core_siblings holds the CPU alone: the masks say four packages, the ids two. hwloc's
    16ia64-8n2s test snapshot shows the same. Caches per CPU: L1d, L1i 16K, L2 256K, L3 9M (shared_cpu_map the CPU)."""
    cpus = []
    for num in range(4):
        caches = [Cache(1, "Data", 16, 4, ("L1d", num)), Cache(1, "Instruction", 16, 4, ("L1i", num)),
                  Cache(2, "Unified", 256, 8, ("L2", num), line=128), Cache(3, "Unified", 9216, 18, ("L3", num), line=128)]
        cpus.append(Cpu(num, num, 0, caches=caches))
    nodes = OrderedDict([(0, ({0, 1}, 6 * g.GiB_KB - 150_000)), (1, ({2, 3}, 6 * g.GiB_KB - 90_000))])

    def info(m, c):
        return ("processor  : %d\nvendor     : GenuineIntel\narch       : IA-64\nfamily     : Itanium 2\nmodel      : 2\n"
                "revision   : 1\narchrev    : 0\nfeatures   : branchlong\ncpu number : 0\ncpu regs   : 4\ncpu MHz    : 1500.000\n"
                "itc MHz    : 1500.000000\nBogoMIPS   : 2244.60\nsiblings   : 1\n\n" % c.num)
    m = Machine("ia64-madison-shared-ids", "ia64", cpus, nodes, [[10, 15], [15, 10]], info, kernel="2.6.16.60-0.21-default",
                kernel_max=63, cpu0_online_file=False, die_files=False, hugepages=False, cpufreq_driver="none")
    t = g.render(m)
    drop(t, r"/topology/(package_cpus|core_cpus)")
    drop(t, r"/cache/index\d/(shared_cpu_list|id)$")
    for c in cpus:
        t.write("%s/cpu%d/topology/physical_package_id" % (CPU, c.num), str((c.num // 2) * 512))
    rewrite_masks(t, 64)
    t.write("proc/self/status", t.files["proc/self/status"].decode("ascii").replace("Cpus_allowed:\tf\n", "Cpus_allowed:\t%s\n" % cpumask(range(4), 64)))
    kernel_build(t, "Linux version 2.6.16.60-0.21-default (geeko@buildhost) (gcc version 4.1.2 20070115 (SUSE Linux))",
                 "#1 SMP Tue May 6 12:41:02 UTC 2008")
    t.write("proc/mounts", "\n".join(line for line in t.files["proc/mounts"].decode("ascii").splitlines() if "cgroup" not in line and "bpf" not in line))
    t.write("proc/self/mountinfo", "\n".join(line for line in t.files["proc/self/mountinfo"].decode("ascii").splitlines() if "cgroup" not in line))
    t.files["proc/self/cgroup"] = b""
    t.write("proc/self/cpuset", "/")
    t.write("proc/hwloc-nofile-info", t.files["proc/hwloc-nofile-info"].decode("ascii").replace("PageSize: 4096", "PageSize: 16384"))
    return t


def cpuless_no_initiators():
    """cpuless-hbm-cxl without HMAT (no access0/initiators anywhere, as on firmware without an HMAT or kernels before 5.2)
    and with two more CPU-less CXL nodes: node 5 behind a switch at distance 20 from every other node (nearest to none),
    and node 6 behind node 4's host bridge, nearest node 4 (15) and at 20 from both sockets. hwloc takes a CPU-less
    node's locality from its nearest nodes by distance, in node order, CPU-less ones included (their locality as found
    so far): node 2 -> node 0, node 3 -> node 1, node 4 -> node 0, node 5 none (every other node is as near), node 6 ->
    node 4's, i.e. node 0's CPUs."""
    t = cpuless_hbm_cxl()
    t.root = "cpuless-no-initiators"
    drop(t, r"/access0/")
    drop_links(t, r"/access0/")
    n = 224
    dist = [[10, 21, 13, 23, 14, 20, 20],
            [21, 10, 23, 13, 24, 20, 20],
            [13, 23, 10, 23, 16, 20, 22],
            [23, 13, 23, 10, 26, 20, 22],
            [14, 24, 16, 26, 10, 20, 15],
            [20, 20, 20, 20, 20, 10, 20],
            [20, 20, 22, 22, 15, 20, 10]]
    for node in range(7):
        nd = "%s/node%d" % (NODE, node)
        t.write(nd + "/distance", " ".join(str(x) for x in dist[node]))
        if node >= 5:
            t.write(nd + "/cpulist", "")
            t.write(nd + "/cpumap", cpumask(set(), n))
            t.write(nd + "/meminfo", g.node_meminfo(node, (64 if node == 5 else 128) * g.GiB_KB - 30_000))
    for f in ("possible", "online", "has_memory", "has_normal_memory"):
        t.write(NODE + "/" + f, "0-6")
    mems_allowed(t, range(7))
    t.write("sys/devices/virtual/memory_tiering/memory_tier22/nodelist", "4-6")
    return t


def stale_cache_lists():
    """The EPYC 7313P whose every shared_cpu_list of the L3 (index3) reads 0-3,16-19, a copy of CPU 0's, while each
    shared_cpu_map is right (fake, like hwloc's 64fake-4n2s2ca2c2t test snapshot, whose lists and masks disagree the
    same way). The kernel prints both from one cpumask, so they never differ on a real machine; a list that does not
    hold its own CPU is the broken one. hwloc reads only the masks: 4 L3s."""
    t = g.render(epyc7313p("stale-cache-lists"))
    first = t.files["%s/cpu0/cache/index3/shared_cpu_list" % CPU]
    for path in [p for p in t.files if p.endswith("/cache/index3/shared_cpu_list")]:
        t.files[path] = first
    return t


def mask_list_conflict():
    """4 x Xeon E7-4870 (Westmere-EX: 10 cores, no SMT here, 30 MiB L3 per socket), CPUs dealt round-robin over the
    sockets (cpu n in socket n % 4), one node per socket; a dump in which two masks contradict every other file:
    cpu2's L3 shared_cpu_map and cpu3's package_cpus/core_siblings masks read 0000000f (CPUs 0-3) while their list
    forms, physical_package_id, the nodes and the other 38 CPUs' files agree on four sockets. It mirrors hwloc's
    40intel64-4n10c+pci-conflicts test snapshot (hand-made for hwloc's conflict handling). hwloc reads the masks and
    keeps what it inserted first: 3 packages and 3 L3s; the lists give 4 and 4."""
    cpus = []
    for num in range(40):
        socket, core = num % 4, num // 4
        caches = [Cache(1, "Data", 32, 8, ("L1d", num), num), Cache(1, "Instruction", 32, 4, ("L1i", num), num),
                  Cache(2, "Unified", 256, 8, ("L2", num), num), Cache(3, "Unified", 30720, 24, ("L3", socket), socket)]
        cpus.append(Cpu(num, socket, core, cluster_id=None, apicid=socket << 6 | core << 1, caches=caches,
                        max_khz=2400000, min_khz=1064000))
    nodes = OrderedDict((s, ({c.num for c in cpus if c.package == s}, 64 * g.GiB_KB - (900_000 if s == 0 else 200_000))) for s in range(4))
    distances = [[10 if i == j else 20 for j in range(4)] for i in range(4)]
    info = g.x86_cpuinfo("GenuineIntel", 6, 47, "Intel(R) Xeon(R) CPU E7- 4870  @ 2.40GHz", 2, "0x3b", 2400.0, 30720,
                         g.SPR_FLAGS, g.INTEL_BUGS, 4788.32, 11, "44 bits physical, 48 bits virtual", "", 10, 10)
    m = Machine("mask-list-conflict", "x86_64", cpus, nodes, distances, info, kernel="3.10.0-1160.el7.x86_64",
                die_files=False, cache_extra={"physical_line_partition": "1"}, cpufreq_driver="acpi-cpufreq")
    t = g.render(m)
    n = m.nr_cpu_ids
    t.write("%s/cpu2/cache/index3/shared_cpu_map" % CPU, cpumask({0, 1, 2, 3}, n))
    for f in ("package_cpus", "core_siblings"):
        t.write("%s/cpu3/topology/%s" % (CPU, f), cpumask({0, 1, 2, 3}, n))
    return t


VARIANTS = OrderedDict([
    ("old-kernel-masks-only", old_kernel_masks_only),
    ("trailing-nul", trailing_nul),
    ("partial-cpufreq", partial_cpufreq),
    ("cpuless-hbm-cxl", cpuless_hbm_cxl),
    ("numa-every-node-all-cpus", numa_every_node_all_cpus),
    ("numa-overlap", numa_overlap),
    ("l3-overlap", l3_overlap),
    ("s390-books-drawers", s390_books_drawers),
    ("power8", power8),
    ("arm-midr-only", arm_midr_only),
    ("gpu-coherent-memory", gpu_coherent_memory),
    ("ia64-montecito", ia64_montecito),
    ("per-cpu-online", per_cpu_online),
    ("s390-no-socket-id", s390_no_socket_id),
    ("power-lpar-no-chip-id", power_lpar_no_chip_id),
    ("ia64-madison-shared-ids", ia64_madison_shared_ids),
    ("cpuless-no-initiators", cpuless_no_initiators),
    ("stale-cache-lists", stale_cache_lists),
    ("mask-list-conflict", mask_list_conflict),
])


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    names = argv[2:] or list(VARIANTS)
    os.makedirs(out, exist_ok=True)
    for name in names:
        tree = VARIANTS[name]()
        path = os.path.join(out, name + ".tar.bz2")
        tree.tarball(path)
        print("%s: %d files, %d bytes" % (path, len(tree.files), os.path.getsize(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
