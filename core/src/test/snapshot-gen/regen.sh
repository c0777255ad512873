#!/bin/sh
# Regenerate the snapshots and hwloc's reading of each into core/src/test/resources/snapshots.
#
# HWLOC_COMPONENTS=-x86 matters: hwloc 2.9's x86 backend still runs under HWLOC_FSROOT and
# fills in what sysfs lacks (caches, CPU model, "Inclusive") from the CPUID of the machine
# running lstopo, so without it the reference XML describes this machine, not the snapshot.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../resources/snapshots}
mkdir -p "$out"
python3 "$here/gen_snapshots.py" "$out"
# the kinds of sysfs that broke discovery (issue 15): old kernels, NUL bytes, CPU-less memory, s390, POWER8...
python3 "$here/variants.py" "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tarball in "$out"/*.tar.bz2; do
    name=$(basename "$tarball" .tar.bz2)
    tar -xjf "$tarball" -C "$work"
    case "$name" in
    gpu-coherent-memory)
        # hwloc drops a GPU's memory node unless asked to keep it; we keep it, so compare with the reading that does
        HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES=1 HWLOC_COMPONENTS=linux,stop HWLOC_FSROOT="$work/$name" \
            lstopo-no-graphics --whole-system --of xml > "$out/$name.lstopo.xml" ;;
    ia64-montecito|per-cpu-online|s390-no-socket-id|power-lpar-no-chip-id|ia64-madison-shared-ids|cpuless-no-initiators|stale-cache-lists|mask-list-conflict)
        # issue 26's kinds: the Linux backend alone, as hwloc's own test suite reads its snapshots
        HWLOC_COMPONENTS=linux,stop HWLOC_FSROOT="$work/$name" \
            lstopo-no-graphics --whole-system --of xml > "$out/$name.lstopo.xml" ;;
    *)
        HWLOC_COMPONENTS=-x86 HWLOC_FSROOT="$work/$name" \
            lstopo-no-graphics --whole-system --of xml > "$out/$name.lstopo.xml" ;;
    esac
done
python3 "$here/summarize_xml.py" "$out"/*.lstopo.xml
