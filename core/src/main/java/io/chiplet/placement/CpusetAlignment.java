package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * How the CPUs a host gave this process lie on the chiplets: whole chiplets, or pieces of several. Pure.
 *
 * <p>A pod of 12 CPUs spread over three 8-CPU CCDs runs three L3s a third full each, and its threads pay the
 * cross-chiplet latency the placement exists to avoid; the report says so in one line, with what to change.
 *
 * @param allowed the CPUs this process may use
 * @param whole chiplets every CPU of which is allowed
 * @param partial chiplets only some of whose CPUs are allowed
 */
public record CpusetAlignment(CpuSet allowed, List<Chiplet> whole, List<Chiplet> partial)
{
    public CpusetAlignment
    {
        requireNonNull(allowed, "allowed is null");
        whole = List.copyOf(whole);
        partial = List.copyOf(partial);
    }

    public static CpusetAlignment of(Topology topology, CpuSet allowed)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(allowed, "allowed is null");
        List<Chiplet> touched = topology.chiplets().stream().filter(chiplet -> chiplet.cpus().intersects(allowed)).toList();
        return new CpusetAlignment(allowed,
                touched.stream().filter(chiplet -> allowed.containsAll(chiplet.cpus())).toList(),
                touched.stream().filter(chiplet -> !allowed.containsAll(chiplet.cpus())).toList());
    }

    /** True when the allowed CPUs are whole chiplets (L3 groups, SNC nodes) and nothing else. */
    public boolean aligned()
    {
        return partial.isEmpty() && !whole.isEmpty();
    }

    public int chipletsTouched()
    {
        return whole.size() + partial.size();
    }

    /**
     * One line for the start-up log, e.g. "allowed CPUs 0-11 (12) touch 2 chiplets, 1 whole and 1 partly (chiplet 1:
     * 4 of 8 CPUs): not chiplet-aligned; ask the host for whole chiplets of 8 CPUs (Kubernetes: a Guaranteed pod of 8
     * or 16 CPUs with the static CPU manager and prefer-align-cpus-by-uncorecache, see chiplet advise --cluster-manager)".
     */
    public String describe()
    {
        String head = "allowed CPUs " + allowed.toList() + " (" + allowed.size() + ") touch " + chipletsTouched() + " chiplet" + (chipletsTouched() == 1 ? "" : "s");
        if (chipletsTouched() == 0) {
            return head + ": none of the topology's chiplets holds them";
        }
        if (aligned()) {
            return head + ", all whole: chiplet-aligned";
        }
        String pieces = partial.stream()
                .map(chiplet -> "chiplet " + chiplet.id() + ": " + chiplet.cpus().intersect(allowed).size() + " of " + chiplet.cpus().size() + " CPUs")
                .collect(Collectors.joining(", "));
        int chipletCpus = partial.get(0).cpus().size();
        int wanted = Math.max(1, (int) Math.ceil((double) allowed.size() / chipletCpus));
        return head + ", " + whole.size() + " whole and " + partial.size() + " partly (" + pieces + "): not chiplet-aligned, threads share L3s with"
                + " other processes and cross chiplets; ask the host for whole chiplets of " + chipletCpus + " CPUs (" + wanted * chipletCpus
                + " CPUs for " + wanted + "; Kubernetes: a Guaranteed pod with the static CPU manager and prefer-align-cpus-by-uncorecache,"
                + " see chiplet advise --cluster-manager)";
    }

    /**
     * Where to place after the allowed CPUs changed: the chiplets placement used before ({@code previous}, e.g. a
     * node's leased chiplets) within the new allowed CPUs; when none of them is left, every new allowed CPU.
     * Runners call {@link PlacementDomain#rescopedTo}, which uses this.
     */
    static CpuSet rescope(Topology topology, CpuSet previous, CpuSet nowAllowed)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(previous, "previous is null");
        requireNonNull(nowAllowed, "nowAllowed is null");
        CpuSet scope = CpuSet.empty();
        for (Chiplet chiplet : topology.chiplets()) {
            if (chiplet.cpus().intersects(previous)) {
                scope = scope.union(chiplet.cpus());
            }
        }
        CpuSet kept = scope.intersect(nowAllowed);
        return kept.isEmpty() ? nowAllowed : kept;
    }
}
