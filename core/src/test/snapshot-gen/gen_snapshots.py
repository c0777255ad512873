#!/usr/bin/env python3
"""Generate sysfs + procfs snapshots of machines we cannot borrow.

Each machine is a compact description (packages, cores, SMT, the way Linux numbers
the CPUs, caches, NUMA nodes, distances, kinds of core, cgroup).  From it we write
the files the kernel would show, in the kernel's own formats, and pack each tree as
<name>.tar.bz2 holding one folder <name>/ with sys/ and proc/ (the convention of
hwloc's test snapshots, so `HWLOC_FSROOT=<name> lstopo-no-graphics --whole-system`
reads it).

Usage: python3 gen_snapshots.py OUTDIR [NAME...]

Standard library only.  Output is byte-for-byte reproducible (fixed mtimes, sorted
members, numeric owner 0).
"""

import io
import os
import sys
import tarfile
from collections import OrderedDict

# --------------------------------------------------------------------------------------
# Kernel formats
# --------------------------------------------------------------------------------------


def cpulist(cpus):
    """Format a set of integers as the kernel's "%*pbl" list: 0-3,8,10-11."""
    cpus = sorted(set(cpus))
    out = []
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)


def cpumask(cpus, nbits):
    """Format a set of integers as the kernel's "%*pb" mask of nbits bits.

    lib/vsprintf.c bitmap_string(): 32-bit chunks, most significant first, joined by
    commas; the first (partial) chunk is printed with just enough hex digits for its
    bits, the others with 8 digits.
    """
    value = 0
    for c in cpus:
        if c >= nbits:
            raise ValueError("cpu %d outside a %d-bit mask" % (c, nbits))
        value |= 1 << c
    chunks = []
    remaining = nbits
    while remaining > 0:
        width = remaining % 32 or 32
        remaining -= width
        chunks.append("%0*x" % ((width + 3) // 4, (value >> remaining) & ((1 << width) - 1)))
    return ",".join(chunks)


def size_k(kib):
    return "%dK" % kib


# --------------------------------------------------------------------------------------
# Machine description
# --------------------------------------------------------------------------------------


class Cache:
    """One cache level/type as seen from one CPU."""

    def __init__(self, level, ctype, kib, ways, instance, cache_id=None, line=64):
        self.level = level
        self.ctype = ctype  # Data, Instruction, Unified
        self.kib = kib
        self.ways = ways
        self.instance = instance  # hashable key: CPUs with the same key share the cache
        self.cache_id = cache_id  # value of indexK/id, None where the kernel has no id file
        self.line = line

    @property
    def sets(self):
        return self.kib * 1024 // (self.ways * self.line)


class Cpu:
    def __init__(self, num, package, core_id, die_id=0, cluster_id=None, core_key=None,
                 apicid=None, caches=(), max_khz=None, base_khz=None, min_khz=None,
                 capacity=None, online=True):
        self.num = num
        self.package = package
        self.core_id = core_id
        self.die_id = die_id
        self.cluster_id = cluster_id
        self.core_key = core_key if core_key is not None else (package, core_id)
        self.apicid = apicid
        self.caches = list(caches)
        self.max_khz = max_khz
        self.base_khz = base_khz
        self.min_khz = min_khz
        self.capacity = capacity
        self.online = online


class Machine:
    def __init__(self, name, arch, cpus, nodes, distances, cpuinfo, mem_total_kb=None,
                 kernel="6.1.0-18-amd64", kernel_max=8191, cpu0_online_file=False,
                 die_files=True, cache_extra=None, hybrid=None, cgroup=None,
                 cpufreq_driver="intel_pstate", hugepages=True, description=""):
        self.name = name
        self.arch = arch  # x86_64 or aarch64
        self.cpus = sorted(cpus, key=lambda c: c.num)
        self.nodes = nodes  # OrderedDict node -> (set of cpus, MemTotal kB)
        self.distances = distances  # list of rows, in node order
        self.cpuinfo = cpuinfo  # callable(machine, cpu) -> text block
        self.kernel = kernel
        self.kernel_max = kernel_max
        self.cpu0_online_file = cpu0_online_file
        self.die_files = die_files
        self.cache_extra = cache_extra or {}
        self.hybrid = hybrid  # (core cpus, atom cpus) or None
        self.cgroup = cgroup  # dict or None
        self.cpufreq_driver = cpufreq_driver
        self.hugepages = hugepages
        self.description = description
        node_total = sum(kb for _, kb in nodes.values())
        self.mem_total_kb = mem_total_kb if mem_total_kb is not None else node_total

    @property
    def nr_cpu_ids(self):
        return max(c.num for c in self.cpus) + 1

    def allowed_cpus(self):
        if self.cgroup:
            return set(self.cgroup["cpus"])
        return {c.num for c in self.cpus if c.online}


# --------------------------------------------------------------------------------------
# Tree writer
# --------------------------------------------------------------------------------------


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = OrderedDict()  # path -> bytes
        self.links = OrderedDict()  # path -> target
        self.dirs = set()

    def write(self, path, text):
        if not text.endswith("\n"):
            text += "\n"
        self.files[path] = text.encode("ascii")

    def link(self, path, target):
        self.links[path] = target

    def mkdir(self, path):
        self.dirs.add(path)

    def tarball(self, out_path):
        entries = set(self.files) | set(self.links) | set(self.dirs)
        all_dirs = set()
        for p in entries:
            parts = p.split("/")
            for i in range(1, len(parts)):
                all_dirs.add("/".join(parts[:i]))
        all_dirs |= self.dirs
        all_dirs.add("")
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
            for d in sorted(all_dirs):
                info = tarfile.TarInfo((self.root + "/" + d).rstrip("/"))
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                self._fix(info)
                tar.addfile(info)
            for p in sorted(set(self.files) | set(self.links)):
                if p in self.files:
                    data = self.files[p]
                    info = tarfile.TarInfo(self.root + "/" + p)
                    info.size = len(data)
                    info.mode = 0o444
                    self._fix(info)
                    tar.addfile(info, io.BytesIO(data))
                else:
                    info = tarfile.TarInfo(self.root + "/" + p)
                    info.type = tarfile.SYMTYPE
                    info.linkname = self.links[p]
                    info.mode = 0o777
                    self._fix(info)
                    tar.addfile(info)
        import bz2
        with open(out_path, "wb") as f:
            f.write(bz2.compress(buf.getvalue(), 9))

    @staticmethod
    def _fix(info):
        info.mtime = 1700000000
        info.uid = info.gid = 0
        info.uname = info.gname = "root"


# --------------------------------------------------------------------------------------
# Rendering a machine
# --------------------------------------------------------------------------------------

CPU = "sys/devices/system/cpu"
NODE = "sys/devices/system/node"


def render(m):
    t = Tree(m.name)
    n = m.nr_cpu_ids
    by_num = {c.num: c for c in m.cpus}
    all_cpus = set(by_num)
    online = {c.num for c in m.cpus if c.online}

    t.write(CPU + "/possible", cpulist(all_cpus))
    t.write(CPU + "/present", cpulist(all_cpus))
    t.write(CPU + "/online", cpulist(online))
    t.write(CPU + "/offline", cpulist(all_cpus - online))
    t.write(CPU + "/kernel_max", str(m.kernel_max))
    if m.arch == "x86_64":
        smt = any(len([d for d in m.cpus if d.core_key == c.core_key]) > 1 for c in m.cpus)
        t.write(CPU + "/smt/active", "1" if smt else "0")
        t.write(CPU + "/smt/control", "on" if smt else "notsupported")

    def group(key):
        g = {}
        for c in m.cpus:
            g.setdefault(key(c), set()).add(c.num)
        return g

    threads = group(lambda c: c.core_key)
    packages = group(lambda c: c.package)
    dies = group(lambda c: (c.package, c.die_id))
    clusters = group(lambda c: (c.package, c.cluster_id))
    cache_groups = {}
    for c in m.cpus:
        for cache in c.caches:
            cache_groups.setdefault(cache.instance, set()).add(c.num)

    node_of = {}
    for node, (cpus, _) in m.nodes.items():
        for c in cpus:
            node_of[c] = node

    for c in m.cpus:
        d = "%s/cpu%d" % (CPU, c.num)
        if c.num != 0 or m.cpu0_online_file:
            t.write(d + "/online", "1" if c.online else "0")
        if c.num in node_of:
            t.link(d + "/node%d" % node_of[c.num], "../../node/node%d" % node_of[c.num])
        if not c.online:
            # An offline CPU keeps its directory but the kernel removes topology/ and cache/.
            continue
        tp = d + "/topology"
        t.write(tp + "/physical_package_id", str(c.package))
        t.write(tp + "/core_id", str(c.core_id))
        sib = threads[c.core_key]
        pkg = packages[c.package]
        t.write(tp + "/thread_siblings_list", cpulist(sib))
        t.write(tp + "/thread_siblings", cpumask(sib, n))
        t.write(tp + "/core_cpus_list", cpulist(sib))
        t.write(tp + "/core_cpus", cpumask(sib, n))
        t.write(tp + "/core_siblings_list", cpulist(pkg))
        t.write(tp + "/core_siblings", cpumask(pkg, n))
        t.write(tp + "/package_cpus_list", cpulist(pkg))
        t.write(tp + "/package_cpus", cpumask(pkg, n))
        if m.die_files:
            die = dies[(c.package, c.die_id)]
            t.write(tp + "/die_id", str(c.die_id))
            t.write(tp + "/die_cpus_list", cpulist(die))
            t.write(tp + "/die_cpus", cpumask(die, n))
        if c.cluster_id is not None:
            cl = clusters[(c.package, c.cluster_id)] if c.cluster_id != -1 else {c.num}
            t.write(tp + "/cluster_id", str(c.cluster_id))
            t.write(tp + "/cluster_cpus_list", cpulist(cl))
            t.write(tp + "/cluster_cpus", cpumask(cl, n))
        for k, cache in enumerate(c.caches):
            ix = "%s/cache/index%d" % (d, k)
            shared = cache_groups[cache.instance]
            t.write(ix + "/level", str(cache.level))
            t.write(ix + "/type", cache.ctype)
            t.write(ix + "/size", size_k(cache.kib))
            t.write(ix + "/coherency_line_size", str(cache.line))
            t.write(ix + "/ways_of_associativity", str(cache.ways))
            t.write(ix + "/number_of_sets", str(cache.sets))
            t.write(ix + "/shared_cpu_list", cpulist(shared))
            t.write(ix + "/shared_cpu_map", cpumask(shared, n))
            if cache.cache_id is not None:
                t.write(ix + "/id", str(cache.cache_id))
            for fname, value in m.cache_extra.items():
                t.write(ix + "/" + fname, value)
        if c.capacity is not None:
            t.write(d + "/cpu_capacity", str(c.capacity))
        if c.max_khz is not None:
            pol = "%s/cpufreq/policy%d" % (CPU, c.num)
            t.link(d + "/cpufreq", "../cpufreq/policy%d" % c.num)
            t.write(pol + "/affected_cpus", str(c.num))
            t.write(pol + "/related_cpus", str(c.num))
            t.write(pol + "/cpuinfo_max_freq", str(c.max_khz))
            t.write(pol + "/cpuinfo_min_freq", str(c.min_khz))
            t.write(pol + "/scaling_max_freq", str(c.max_khz))
            t.write(pol + "/scaling_min_freq", str(c.min_khz))
            if c.base_khz is not None:
                t.write(pol + "/base_frequency", str(c.base_khz))
            t.write(pol + "/scaling_driver", m.cpufreq_driver)
            t.write(pol + "/scaling_governor", "performance")

    if m.hybrid:
        core, atom = m.hybrid
        t.write("sys/devices/cpu_core/cpus", cpulist(core))
        t.write("sys/devices/cpu_atom/cpus", cpulist(atom))

    # NUMA nodes
    nodes = list(m.nodes)
    t.write(NODE + "/possible", cpulist(nodes))
    t.write(NODE + "/online", cpulist(nodes))
    t.write(NODE + "/has_cpu", cpulist([k for k in nodes if m.nodes[k][0] & online]))
    t.write(NODE + "/has_memory", cpulist([k for k in nodes if m.nodes[k][1] > 0]))
    t.write(NODE + "/has_normal_memory", cpulist([k for k in nodes if m.nodes[k][1] > 0]))
    for i, node in enumerate(nodes):
        cpus, kb = m.nodes[node]
        nd = "%s/node%d" % (NODE, node)
        t.write(nd + "/cpulist", cpulist(cpus & online))
        t.write(nd + "/cpumap", cpumask(cpus & online, n))
        t.write(nd + "/distance", " ".join(str(x) for x in m.distances[i]))
        t.write(nd + "/meminfo", node_meminfo(node, kb))
        for c in sorted(cpus):
            t.link(nd + "/cpu%d" % c, "../../cpu/cpu%d" % c)
        if m.hugepages:
            for hp in ("hugepages-2048kB", "hugepages-1048576kB"):
                for f in ("nr_hugepages", "free_hugepages", "surplus_hugepages"):
                    t.write("%s/hugepages/%s/%s" % (nd, hp, f), "0")
    if m.hugepages:
        for hp in ("hugepages-2048kB", "hugepages-1048576kB"):
            for f in ("nr_hugepages", "free_hugepages", "surplus_hugepages", "resv_hugepages",
                      "nr_overcommit_hugepages"):
                t.write("sys/kernel/mm/hugepages/%s/%s" % (hp, f), "0")

    # procfs
    t.write("proc/cpuinfo", "".join(m.cpuinfo(m, by_num[c]) for c in sorted(online)))
    t.write("proc/meminfo", proc_meminfo(m.mem_total_kb))
    t.write("proc/self/status", proc_status(m, n))
    t.write("proc/mounts", proc_mounts(m))
    t.write("proc/self/mountinfo", proc_mountinfo(m))
    cg_path = m.cgroup["path"] if m.cgroup else "/user.slice/user-1000.slice/session-3.scope"
    t.write("proc/self/cgroup", "0::%s" % cg_path)
    t.write("proc/self/cpuset", cg_path)
    t.write("proc/version", "Linux version %s (debian-kernel@lists.debian.org) "
            "(gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) "
            "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)" % m.kernel)
    # hwloc-gather-topology convention (also in hwloc's own snapshots): tells a reader on
    # another machine which architecture and page size the snapshot comes from.
    t.write("proc/hwloc-nofile-info",
            "OSName: Linux\nOSRelease: %s\nOSVersion: #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 "
            "(2024-02-01)\nHostName: %s\nArchitecture: %s\nFallbackNbProcessors: %d\n"
            "PageSize: 4096" % (m.kernel, m.name, m.arch, len(online)))

    write_cgroup_fs(t, m)
    return t


def node_meminfo(node, total):
    used = total // 40
    free = total - used
    rows = [
        ("MemTotal", total), ("MemFree", free), ("MemUsed", used), ("SwapCached", 0),
        ("Active", used // 3), ("Inactive", used // 2), ("Active(anon)", used // 20),
        ("Inactive(anon)", used // 6), ("Active(file)", used // 4), ("Inactive(file)", used // 3),
        ("Unevictable", 0), ("Mlocked", 0), ("Dirty", 24), ("Writeback", 0),
        ("FilePages", used // 2), ("Mapped", used // 16), ("AnonPages", used // 5),
        ("Shmem", used // 64), ("KernelStack", 9000), ("PageTables", used // 200),
        ("SecPageTables", 0), ("NFS_Unstable", 0), ("Bounce", 0), ("WritebackTmp", 0),
        ("KReclaimable", used // 8), ("Slab", used // 5), ("SReclaimable", used // 8),
        ("SUnreclaim", used // 5 - used // 8), ("AnonHugePages", 0), ("ShmemHugePages", 0),
        ("ShmemPmdMapped", 0), ("FileHugePages", 0), ("FilePmdMapped", 0),
    ]
    lines = ["Node %d %-15s %8d kB" % (node, k + ":", v) for k, v in rows]
    for k in ("HugePages_Total", "HugePages_Free", "HugePages_Surp"):
        lines.append("Node %d %s: %5d" % (node, k, 0))
    return "\n".join(lines)


def proc_meminfo(total):
    used = total // 40
    rows = [
        ("MemTotal", total), ("MemFree", total - used), ("MemAvailable", total - used // 2),
        ("Buffers", used // 50), ("Cached", used // 2), ("SwapCached", 0),
        ("Active", used // 3), ("Inactive", used // 2), ("Active(anon)", used // 20),
        ("Inactive(anon)", used // 6), ("Active(file)", used // 4), ("Inactive(file)", used // 3),
        ("Unevictable", 0), ("Mlocked", 0), ("SwapTotal", 0), ("SwapFree", 0),
        ("Zswap", 0), ("Zswapped", 0), ("Dirty", 96), ("Writeback", 0),
        ("AnonPages", used // 5), ("Mapped", used // 16), ("Shmem", used // 64),
        ("KReclaimable", used // 8), ("Slab", used // 5), ("SReclaimable", used // 8),
        ("SUnreclaim", used // 5 - used // 8), ("KernelStack", 36000),
        ("PageTables", used // 200), ("SecPageTables", 0), ("NFS_Unstable", 0), ("Bounce", 0),
        ("WritebackTmp", 0), ("CommitLimit", total // 2), ("Committed_AS", used),
        ("VmallocTotal", 34359738367), ("VmallocUsed", 250000), ("VmallocChunk", 0),
        ("Percpu", 120000), ("HardwareCorrupted", 0), ("AnonHugePages", 0),
        ("ShmemHugePages", 0), ("ShmemPmdMapped", 0), ("FileHugePages", 0),
        ("FilePmdMapped", 0),
    ]
    lines = ["%-15s %8d kB" % (k + ":", v) for k, v in rows]
    lines += ["HugePages_Total:       0", "HugePages_Free:        0", "HugePages_Rsvd:        0",
              "HugePages_Surp:        0", "Hugepagesize:       2048 kB", "Hugetlb:               0 kB"]
    return "\n".join(lines)


def proc_status(m, n):
    allowed = m.allowed_cpus()
    nodes = list(m.nodes)
    # Mems_allowed is printed over MAX_NUMNODES bits (NODES_SHIFT=10 on Debian kernels).
    mems = cpumask(nodes, 1024)
    rows = [
        ("Name", "cat"), ("Umask", "0022"), ("State", "R (running)"), ("Tgid", "4242"),
        ("Ngid", "0"), ("Pid", "4242"), ("PPid", "4200"), ("TracerPid", "0"),
        ("Uid", "1000\t1000\t1000\t1000"), ("Gid", "1000\t1000\t1000\t1000"),
        ("FDSize", "256"), ("Groups", "1000"), ("VmPeak", "    5512 kB"),
        ("VmSize", "    5512 kB"), ("VmRSS", "     996 kB"), ("Threads", "1"),
        ("Seccomp", "0"), ("Seccomp_filters", "0"),
        ("Cpus_allowed", cpumask(allowed, n)), ("Cpus_allowed_list", cpulist(allowed)),
        ("Mems_allowed", mems), ("Mems_allowed_list", cpulist(nodes)),
        ("voluntary_ctxt_switches", "0"), ("nonvoluntary_ctxt_switches", "1"),
    ]
    return "\n".join("%s:\t%s" % r for r in rows)


def proc_mounts(m):
    return "\n".join([
        "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0",
        "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0",
        "udev /dev devtmpfs rw,nosuid,relatime,size=16296332k,nr_inodes=4074083,mode=755,inode64 0 0",
        "devpts /dev/pts devpts rw,nosuid,noexec,relatime,gid=5,mode=620,ptmxmode=000 0 0",
        "tmpfs /run tmpfs rw,nosuid,nodev,noexec,relatime,size=3264796k,mode=755,inode64 0 0",
        "/dev/nvme0n1p2 / ext4 rw,relatime,errors=remount-ro 0 0",
        "securityfs /sys/kernel/security securityfs rw,nosuid,nodev,noexec,relatime 0 0",
        "tmpfs /dev/shm tmpfs rw,nosuid,nodev,inode64 0 0",
        "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot 0 0",
        "bpf /sys/fs/bpf bpf rw,nosuid,nodev,noexec,relatime,mode=700 0 0",
        "hugetlbfs /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0",
    ])


def proc_mountinfo(m):
    return "\n".join([
        "21 26 0:20 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw",
        "22 26 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw",
        "23 26 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=16296332k,nr_inodes=4074083,mode=755,inode64",
        "26 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro",
        "30 21 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot",
    ])


def write_cgroup_fs(t, m):
    """cgroup v2 unified hierarchy at /sys/fs/cgroup.

    hwloc (topology-linux.c, hwloc_find_linux_cgroup_mntpnt) first tests
    /sys/fs/cgroup/cpuset.cpus.effective, takes the cgroup name from /proc/self/cpuset
    or the "0::" line of /proc/self/cgroup, and reads
    <mount><name>/cpuset.cpus.effective and cpuset.mems.effective.
    """
    if not m.cgroup:
        return
    root = "sys/fs/cgroup"
    all_cpus = cpulist(c.num for c in m.cpus if c.online)
    all_mems = cpulist(m.nodes)
    controllers = "cpuset cpu io memory hugetlb pids rdma misc"
    t.write(root + "/cgroup.controllers", controllers)
    t.write(root + "/cgroup.subtree_control", "cpuset cpu io memory pids")
    t.write(root + "/cpuset.cpus.effective", all_cpus)
    t.write(root + "/cpuset.mems.effective", all_mems)
    path = ""
    parts = [p for p in m.cgroup["path"].split("/") if p]
    for i, part in enumerate(parts):
        path += "/" + part
        d = root + path
        leaf = i == len(parts) - 1
        t.write(d + "/cgroup.controllers", "cpuset cpu io memory pids")
        t.write(d + "/cgroup.type", "domain")
        if leaf:
            t.write(d + "/cpuset.cpus", cpulist(m.cgroup["cpus"]))
            t.write(d + "/cpuset.cpus.effective", cpulist(m.cgroup["cpus"]))
            t.write(d + "/cpuset.mems", cpulist(m.cgroup["mems"]))
            t.write(d + "/cpuset.mems.effective", cpulist(m.cgroup["mems"]))
            t.write(d + "/cpuset.cpus.partition", "member")
            t.write(d + "/cgroup.procs", "4242")
            t.write(d + "/cpu.max", "max 100000")
        else:
            t.write(d + "/cgroup.subtree_control", "cpuset cpu io memory pids")
            t.write(d + "/cpuset.cpus", "")
            t.write(d + "/cpuset.cpus.effective", all_cpus)
            t.write(d + "/cpuset.mems", "")
            t.write(d + "/cpuset.mems.effective", all_mems)


# --------------------------------------------------------------------------------------
# /proc/cpuinfo
# --------------------------------------------------------------------------------------

AMD_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx "
             "fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good "
             "nopl nonstop_tsc cpuid extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma "
             "cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm "
             "cmp_legacy svm extapic cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw ibs skinit "
             "wdt tce topoext perfctr_core perfctr_nb bpext perfctr_llc mwaitx cpb cat_l3 cdp_l3 "
             "invpcid_single hw_pstate ssbd mba ibrs ibpb stibp vmmcall fsgsbase bmi1 avx2 smep "
             "bmi2 invpcid cqm rdt_a rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 "
             "xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local clzero irperf xsaveerptr "
             "rdpru wbnoinvd amd_ppin brs arat npt lbrv svm_lock nrip_save tsc_scale vmcb_clean "
             "flushbyasid decodeassists pausefilter pfthreshold v_vmsave_vmload vgif v_spec_ctrl "
             "umip pku ospke vaes vpclmulqdq rdpid overflow_recov succor smca sev sev_es")
AMD_BUGS = "sysret_ss_attrs spectre_v1 spectre_v2 spec_store_bypass srso"

SPR_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts "
             "acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art "
             "arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc cpuid aperfmperf "
             "tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3 sdbg fma "
             "cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes "
             "xsave avx f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb cat_l3 cat_l2 cdp_l3 "
             "invpcid_single intel_ppin cdp_l2 ssbd mba ibrs ibpb stibp ibrs_enhanced tpr_shadow "
             "flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid "
             "cqm rdt_a avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb intel_pt "
             "avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc "
             "cqm_occup_llc cqm_mbm_total cqm_mbm_local split_lock_detect avx_vnni avx512_bf16 "
             "wbnoinvd dtherm ida arat pln pts hwp hwp_act_window hwp_epp hwp_pkg_req avx512vbmi "
             "umip pku ospke waitpkg avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg "
             "tme avx512_vpopcntdq la57 rdpid bus_lock_detect cldemote movdiri movdir64b enqcmd "
             "fsrm md_clear serialize tsxldtrk pconfig arch_lbr ibt amx_bf16 avx512_fp16 amx_tile "
             "amx_int8 flush_l1d arch_capabilities")
ADL_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts "
             "acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art "
             "arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc cpuid aperfmperf "
             "tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3 sdbg fma "
             "cx16 xtpr pdcm pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave "
             "avx f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb ssbd ibrs ibpb stibp "
             "ibrs_enhanced tpr_shadow vnmi flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 "
             "avx2 smep bmi2 erms invpcid rdseed adx smap clflushopt clwb intel_pt sha_ni "
             "xsaveopt xsavec xgetbv1 xsaves split_lock_detect avx_vnni dtherm ida arat pln pts "
             "hwp hwp_notify hwp_act_window hwp_epp hwp_pkg_req hfi umip pku ospke waitpkg gfni "
             "vaes vpclmulqdq tme rdpid movdiri movdir64b fsrm md_clear serialize pconfig arch_lbr "
             "ibt flush_l1d arch_capabilities")
INTEL_BUGS = "spectre_v1 spectre_v2 spec_store_bypass swapgs eibrs_pbrsb"


def x86_cpuinfo(vendor, family, model, name, stepping, microcode, mhz, cache_kb, flags, bugs,
                bogomips, cpuid_level, address_sizes, power, siblings, cores, tlb=None):
    def block(m, c):
        rows = [
            ("processor", c.num), ("vendor_id", vendor), ("cpu family", family), ("model", model),
            ("model name", name), ("stepping", stepping), ("microcode", microcode),
            ("cpu MHz", "%.3f" % mhz), ("cache size", "%d KB" % cache_kb),
            ("physical id", c.package), ("siblings", siblings), ("core id", c.core_id),
            ("cpu cores", cores), ("apicid", c.apicid), ("initial apicid", c.apicid),
            ("fpu", "yes"), ("fpu_exception", "yes"), ("cpuid level", cpuid_level), ("wp", "yes"),
            ("flags", flags), ("bugs", bugs), ("bogomips", "%.2f" % bogomips),
        ]
        if tlb:
            rows.append(("TLB size", tlb))
        rows += [("clflush size", 64), ("cache_alignment", 64), ("address sizes", address_sizes),
                 ("power management", power)]
        out = []
        for k, v in rows:
            tabs = "\t" if len(k) >= 8 else "\t\t"
            if k == "power management":
                # show_cpuinfo() prints the label, then " flag" per power feature.
                out.append("power management:" + (" " + v if v else ""))
            else:
                out.append("%s%s: %s" % (k, tabs, v))
        return "\n".join(out) + "\n\n"
    return block


def arm_cpuinfo(features, implementer, variant, part, revision, bogomips):
    def block(m, c):
        return ("processor\t: %d\nBogoMIPS\t: %.2f\nFeatures\t: %s\nCPU implementer\t: %s\n"
                "CPU architecture: 8\nCPU variant\t: %s\nCPU part\t: %s\nCPU revision\t: %d\n\n"
                % (c.num, bogomips, features, implementer, variant, part, revision))
    return block


V1_FEATURES = ("fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm "
               "jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc "
               "flagm ssbs paca pacg dcpodp svei8mm svebf16 i8mm bf16 dgh rng")
N1_FEATURES = ("fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm "
               "lrcpc dcpop asimddp ssbs")

# --------------------------------------------------------------------------------------
# Machines
# --------------------------------------------------------------------------------------

GiB_KB = 1024 * 1024


def zen3_cpus(n_packages, cores_per_ccd, ccds, ccd_slots=8, l3_kib=32768, max_khz=None,
              base_khz=None):
    """Zen 3 (Milan): 8-slot CCDs, SMT siblings numbered after all first threads.

    APIC ID = socket << 7 | ccd << 4 | core << 1 | thread; sysfs core_id = APIC ID >> 1
    within the socket (so parts with fused-off cores show gaps), cache ids = APIC ID >>
    log2(threads sharing), cluster_id (L2 sharing) = APIC ID with the thread bit cleared.
    """
    per_pkg = cores_per_ccd * ccds
    total_cores = per_pkg * n_packages
    cpus = []
    for pkg in range(n_packages):
        for ccd in range(ccds):
            for core in range(cores_per_ccd):
                first = pkg * per_pkg + ccd * cores_per_ccd + core
                for thread in range(2):
                    num = first + thread * total_cores
                    apic = (pkg << 7) | (ccd << 4) | (core << 1) | thread
                    core_id = ((ccd << 4) | (core << 1)) >> 1
                    l2 = apic >> 1
                    caches = [
                        Cache(1, "Data", 32, 8, ("L1d", pkg, l2), l2),
                        Cache(1, "Instruction", 32, 8, ("L1i", pkg, l2), l2),
                        Cache(2, "Unified", 512, 8, ("L2", pkg, l2), l2),
                        Cache(3, "Unified", l3_kib, 16, ("L3", pkg, ccd), apic >> 4),
                    ]
                    cpus.append(Cpu(num, pkg, core_id, die_id=0, cluster_id=apic & ~1,
                                    apicid=apic, caches=caches, max_khz=max_khz,
                                    base_khz=base_khz, min_khz=1500000 if max_khz else None))
    return cpus


def epyc7763(nps):
    cpus = zen3_cpus(2, 8, 8, max_khz=2450000)
    for c in cpus:
        c.base_khz = None
    mem_pkg = 512 * GiB_KB
    if nps == 1:
        nodes = OrderedDict()
        for node in range(2):
            cs = {c.num for c in cpus if c.package == node}
            nodes[node] = (cs, mem_pkg - (3_610_000 if node == 0 else 1_180_000))
        distances = [[10, 32], [32, 10]]
    else:
        nodes = OrderedDict()
        for node in range(8):
            pkg, quad = divmod(node, 4)
            # Each NPS4 quadrant holds two CCDs (16 cores) and two memory channels.
            cs = {c.num for c in cpus
                  if c.package == pkg and (c.apicid >> 4 & 7) // 2 == quad}
            nodes[node] = (cs, mem_pkg // 4 - (2_900_000 if node == 0 else 420_000))
        intra = [[10, 11, 12, 12], [11, 10, 12, 12], [12, 12, 10, 11], [12, 12, 11, 10]]
        distances = [[intra[i % 4][j % 4] if i // 4 == j // 4 else 32 for j in range(8)]
                     for i in range(8)]
    info = x86_cpuinfo("AuthenticAMD", 25, 1, "AMD EPYC 7763 64-Core Processor", 1,
                       "0xa0011d1", 2450.0, 512, AMD_FLAGS, AMD_BUGS, 4890.70, 16,
                       "48 bits physical, 48 bits virtual",
                       "ts ttp tm hwpstate cpb eff_freq_ro [13] [14]", 128, 64,
                       tlb="2560 4K pages")
    return Machine("2xepyc7763-nps%d" % nps, "x86_64", cpus, nodes, distances, info,
                   cache_extra={"physical_line_partition": "1"},
                   cpufreq_driver="acpi-cpufreq",
                   description="dual AMD EPYC 7763 (Milan), SMT on, NPS%d" % nps)


def spr8480(snc):
    """Dual Xeon Platinum 8480+: 56 cores/socket (4 tiles x 14 enabled of 16 slots)."""
    n_pkg, per_pkg = 2, 56
    total = n_pkg * per_pkg
    cpus = []
    for pkg in range(n_pkg):
        for k in range(per_pkg):
            tile, pos = divmod(k, 14)
            slot = tile * 16 + pos  # core slots 14 and 15 of each tile fused off
            for thread in range(2):
                num = pkg * per_pkg + k + thread * total
                apic = (pkg << 7) | (slot << 1) | thread
                caches = [
                    Cache(1, "Data", 48, 12, ("L1d", apic >> 1), apic >> 1),
                    Cache(1, "Instruction", 32, 8, ("L1i", apic >> 1), apic >> 1),
                    Cache(2, "Unified", 2048, 16, ("L2", apic >> 1), apic >> 1),
                    # CPUID leaf 4 reports the L3 shared by the whole socket, SNC or not.
                    Cache(3, "Unified", 107520, 15, ("L3", pkg), pkg),
                ]
                cpus.append(Cpu(num, pkg, slot, die_id=0, cluster_id=apic & ~1, apicid=apic,
                                caches=caches, max_khz=3800000, base_khz=2000000,
                                min_khz=800000))
    mem_pkg = 512 * GiB_KB
    nodes = OrderedDict()
    if snc == 4:
        for node in range(8):
            pkg, quad = divmod(node, 4)
            cs = {c.num for c in cpus if c.package == pkg
                  and ((c.num % total) - pkg * per_pkg) // 14 == quad}
            nodes[node] = (cs, mem_pkg // 4 - (2_700_000 if node == 0 else 380_000))
        distances = [[(10 if i == j else 12) if i // 4 == j // 4 else 21 for j in range(8)]
                     for i in range(8)]
        name = "2xspr8480-snc4"
    else:
        for node in range(2):
            cs = {c.num for c in cpus if c.package == node}
            nodes[node] = (cs, mem_pkg - (3_400_000 if node == 0 else 1_050_000))
        distances = [[10, 21], [21, 10]]
        name = "2xspr8480-snc-off"
    info = x86_cpuinfo("GenuineIntel", 6, 143, "Intel(R) Xeon(R) Platinum 8480+", 8,
                       "0x2b000571", 2000.0, 107520, SPR_FLAGS,
                       INTEL_BUGS, 4000.00, 32, "46 bits physical, 57 bits virtual", "", 112, 56)
    return Machine(name, "x86_64", cpus, nodes, distances, info,
                   cache_extra={"physical_line_partition": "1"},
                   description="dual Intel Xeon Platinum 8480+ (Sapphire Rapids), SMT on, "
                               + ("SNC4" if snc == 4 else "SNC off"))


def graviton3():
    cpus = []
    for k in range(64):
        caches = [
            Cache(1, "Data", 64, 4, ("L1d", k)),
            Cache(1, "Instruction", 64, 4, ("L1i", k)),
            Cache(2, "Unified", 1024, 8, ("L2", k)),
            Cache(3, "Unified", 32768, 16, ("L3",)),
        ]
        cpus.append(Cpu(k, 0, k, cluster_id=0, caches=caches, capacity=1024))
    nodes = OrderedDict([(0, (set(range(64)), 131_591_904))])
    info = arm_cpuinfo(V1_FEATURES, "0x41", "0x1", "0xd40", 1, 2100.00)
    return Machine("graviton3", "aarch64", cpus, nodes, [[10]], info,
                   kernel="6.1.0-18-cloud-arm64", kernel_max=4095, cpu0_online_file=True,
                   die_files=False,
                   cache_extra={"allocation_policy": "ReadWriteAllocate",
                                "write_policy": "WriteBack"},
                   description="AWS Graviton3 (c7g.16xlarge): 64 Neoverse V1, no SMT, 1 node")


def alderlake():
    cpus = []
    # 8 P-cores (Golden Cove, SMT): APIC IDs 0,1, 8,9, ... 56,57.
    for p in range(8):
        for thread in range(2):
            num = 2 * p + thread
            apic = p * 8 + thread
            caches = [
                Cache(1, "Data", 48, 12, ("L1d", p), p),
                Cache(1, "Instruction", 32, 8, ("L1i", p), p),
                Cache(2, "Unified", 1280, 10, ("L2", p), p),
                Cache(3, "Unified", 30720, 12, ("L3",), 0),
            ]
            # Two "favoured" cores (Turbo Boost Max 3.0) report 5.2 GHz, the others 5.1 GHz.
            max_khz = 5200000 if p in (2, 3) else 5100000
            cpus.append(Cpu(num, 0, apic >> 1, cluster_id=apic & ~1, apicid=apic,
                            caches=caches, max_khz=max_khz, base_khz=3200000, min_khz=800000))
    # 8 E-cores (Gracemont, no SMT) in 2 clusters of 4 sharing a 2 MiB L2: APIC IDs 64..78.
    for e in range(8):
        num = 16 + e
        apic = 64 + 2 * e
        cl = e // 4
        caches = [
            Cache(1, "Data", 32, 8, ("L1d", "e", e), 8 + e),
            Cache(1, "Instruction", 64, 8, ("L1i", "e", e), 8 + e),
            Cache(2, "Unified", 2048, 16, ("L2", "e", cl), 8 + cl),
            Cache(3, "Unified", 30720, 12, ("L3",), 0),
        ]
        cpus.append(Cpu(num, 0, apic >> 1, cluster_id=apic & ~7, apicid=apic, caches=caches,
                        max_khz=3900000, base_khz=2400000, min_khz=800000))
    nodes = OrderedDict([(0, (set(range(24)), 32_595_908))])
    info = x86_cpuinfo("GenuineIntel", 6, 151, "12th Gen Intel(R) Core(TM) i9-12900K", 2,
                       "0x35", 3200.0, 30720, ADL_FLAGS, INTEL_BUGS, 6374.40, 32,
                       "46 bits physical, 48 bits virtual", "", 24, 16)
    return Machine("alderlake-i9-12900k", "x86_64", cpus, nodes, [[10]], info,
                   cache_extra={"physical_line_partition": "1"},
                   hybrid=(set(range(16)), set(range(16, 24))),
                   description="Intel Core i9-12900K: 8 P-cores with SMT (0-15), 8 E-cores (16-23)")


def container():
    """A docker container (cgroupfs driver, host cgroup namespace) on an EPYC 7313P host."""
    cpus = zen3_cpus(1, 4, 4, max_khz=3000000)
    nodes = OrderedDict([(0, ({c.num for c in cpus}, 131_694_592))])
    info = x86_cpuinfo("AuthenticAMD", 25, 1, "AMD EPYC 7313P 16-Core Processor", 1,
                       "0xa0011d1", 3000.0, 512, AMD_FLAGS, AMD_BUGS, 5988.92, 16,
                       "48 bits physical, 48 bits virtual",
                       "ts ttp tm hwpstate cpb eff_freq_ro [13] [14]", 32, 16,
                       tlb="2560 4K pages")
    allowed = {2, 3, 4, 5, 10, 11, 12, 13}
    return Machine("container-cgroup2-cpuset", "x86_64", cpus, nodes, [[10]], info,
                   cache_extra={"physical_line_partition": "1"},
                   cpufreq_driver="acpi-cpufreq",
                   cgroup={"path": "/docker/abc", "cpus": allowed, "mems": {0}},
                   description="EPYC 7313P host (16 cores, SMT, 4 CCDs), process in a cgroup v2 "
                               "cpuset allowing 2-5,10-13")


def vm_no_caches():
    """arm64 KVM guest (QEMU virt, no PPTT): the kernel finds no cache hierarchy."""
    cpus = [Cpu(k, 0, k, cluster_id=-1, capacity=1024) for k in range(8)]
    nodes = OrderedDict([(0, (set(range(8)), 16_369_872))])
    info = arm_cpuinfo(N1_FEATURES, "0x41", "0x3", "0xd0c", 1, 50.00)
    return Machine("vm-no-caches", "aarch64", cpus, nodes, [[10]], info,
                   kernel="6.1.0-18-cloud-arm64", kernel_max=4095, cpu0_online_file=True,
                   die_files=False, hugepages=False,
                   description="8-vCPU arm64 KVM guest without cache information")


def two_chiplets():
    """The live-test fixture: a 2-CPU machine (like the CI VM) whose two CPUs sit on separate 8 MiB L3s, so
    placement across "chiplets" can be checked with real sched_setaffinity results on a 2-core box."""
    cpus = []
    for k in range(2):
        caches = [
            Cache(1, "Data", 32, 8, ("L1d", k), k),
            Cache(1, "Instruction", 32, 8, ("L1i", k), k),
            Cache(2, "Unified", 512, 8, ("L2", k), k),
            Cache(3, "Unified", 8192, 16, ("L3", k), k),
        ]
        cpus.append(Cpu(k, 0, k, cluster_id=k * 2, apicid=k * 16, caches=caches, max_khz=2450000))
    nodes = OrderedDict([(0, ({0, 1}, 24_600_000))])
    info = x86_cpuinfo("AuthenticAMD", 25, 1, "AMD EPYC 7763 64-Core Processor", 1,
                       "0xa0011d1", 2450.0, 512, AMD_FLAGS, AMD_BUGS, 4890.70, 16,
                       "48 bits physical, 48 bits virtual",
                       "ts ttp tm hwpstate cpb eff_freq_ro [13] [14]", 2, 2,
                       tlb="2560 4K pages")
    return Machine("two-cpus-two-chiplets", "x86_64", cpus, nodes, [[10]], info,
                   cache_extra={"physical_line_partition": "1"},
                   cpufreq_driver="acpi-cpufreq",
                   description="2 CPUs, each on its own L3: this machine's two CPUs presented as two chiplets")


MACHINES = OrderedDict([
    ("2xepyc7763-nps1", lambda: epyc7763(1)),
    ("2xepyc7763-nps4", lambda: epyc7763(4)),
    ("2xspr8480-snc4", lambda: spr8480(4)),
    ("2xspr8480-snc-off", lambda: spr8480(0)),
    ("graviton3", graviton3),
    ("alderlake-i9-12900k", alderlake),
    ("container-cgroup2-cpuset", container),
    ("vm-no-caches", vm_no_caches),
    ("two-cpus-two-chiplets", two_chiplets),
])


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: gen_snapshots.py OUTDIR [NAME...]\n")
        return 2
    out = argv[1]
    names = argv[2:] or list(MACHINES)
    os.makedirs(out, exist_ok=True)
    for name in names:
        if name not in MACHINES:
            sys.stderr.write("unknown machine %s (known: %s)\n" % (name, ", ".join(MACHINES)))
            return 2
        m = MACHINES[name]()
        tree = render(m)
        path = os.path.join(out, name + ".tar.bz2")
        tree.tarball(path)
        print("%s: %d files, %d bytes" % (path, len(tree.files), os.path.getsize(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
