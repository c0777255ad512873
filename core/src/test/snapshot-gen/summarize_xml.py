#!/usr/bin/env python3
"""One-paragraph summary of an hwloc XML (lstopo --of xml): what hwloc read.

Usage: python3 summarize_xml.py FILE.xml...

Prints packages, NUMA nodes (P# and CPUs), L3 instances (size and CPUs), cores, PUs,
the allowed cpuset and CPU kinds, with cpusets written as kernel cpulists.
"""

import sys
import xml.etree.ElementTree as ET


def bitmap_to_list(text):
    """hwloc bitmap "0xffffffff,,0x0000000f" (32-bit words, most significant first)."""
    if text is None:
        return []
    words = text.split(",")
    value = 0
    for w in words:
        value = (value << 32) | (int(w, 16) if w else 0)
    out = []
    bit = 0
    while value:
        if value & 1:
            out.append(bit)
        value >>= 1
        bit += 1
    return out


def cpulist(cpus):
    cpus = sorted(cpus)
    out, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out) or "-"


def summarize(path):
    root = ET.parse(path).getroot()
    objs = list(root.iter("object"))
    machine = objs[0]

    def of(t):
        return [o for o in objs if o.get("type") == t]

    lines = [path]
    lines.append("  packages: %d; cores: %d; PUs: %d; allowed: %s (%d PUs)" % (
        len(of("Package")), len(of("Core")), len(of("PU")),
        cpulist(bitmap_to_list(machine.get("allowed_cpuset"))),
        len(bitmap_to_list(machine.get("allowed_cpuset")))))
    nodes = []
    for n in of("NUMANode"):
        mem = int(n.get("local_memory", "0")) / 2 ** 30
        nodes.append("P#%s %.1fGiB cpus %s" % (n.get("os_index"), mem,
                                               cpulist(bitmap_to_list(n.get("cpuset")))))
    lines.append("  NUMA nodes: %d: %s" % (len(nodes), "; ".join(nodes)))
    l3 = of("L3Cache")
    lines.append("  L3: %d%s" % (len(l3), "".join(
        "\n    %dKiB cpus %s" % (int(c.get("cache_size")) // 1024,
                                cpulist(bitmap_to_list(c.get("cpuset")))) for c in l3)))
    groups = of("Group")
    if groups:
        lines.append("  groups: %s" % "; ".join(
            cpulist(bitmap_to_list(g.get("cpuset"))) for g in groups))
    kinds = root.findall("cpukind")
    for k in kinds:
        infos = ", ".join("%s=%s" % (i.get("name"), i.get("value")) for i in k.findall("info"))
        lines.append("  kind: cpus %s efficiency %s %s" % (
            cpulist(bitmap_to_list(k.get("cpuset"))), k.get("forced_efficiency", "?"), infos))
    return "\n".join(lines)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(summarize(p))
