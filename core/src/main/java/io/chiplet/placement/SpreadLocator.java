package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * CHARM's Update Task Location (Algorithm 2 of Fogli et al., "CHARM: Chiplet Heterogeneity-Aware Runtime Mapping System", EuroSys 2026), generalised.
 *
 * <p>A worker at spread {@code s} shares its chiplet with at most {@code cores/s} workers, so a chiplet's worth of
 * workers spans {@code s} chiplets and each has {@code s} cores' share of L3 (Algorithm 2, lines 5-6). The paper's form
 * assumes CPU {@code chiplet * CORES_PER_CHIPLET + slot}, equal chiplets and one spread for all; it collides as soon as
 * two workers differ in spread. Here every spread vector maps to a collision-free placement:
 * <ol>
 * <li>worker by worker, first fit: worker {@code i} costs {@code min(s_i, cores)} of a chiplet's allowed physical
 * cores and takes the chiplet's next free core; chiplets go package by package, so a socket fills before the next;</li>
 * <li>workers that did not fit (the spreads ask for more cores than exist) take any free physical core;</li>
 * <li>then SMT siblings, each a slot of its own;</li>
 * <li>beyond every allowed CPU, slots are reused round-robin, so sharing is as even as it can be.</li>
 * </ol>
 * Chiplet and core order come from the topology model, never from CPU numbers. {@link #locate} allocates nothing.
 * Not thread-safe: one owner calls it.
 */
final class SpreadLocator
{
    private final int chiplets;
    private final int[] chipletIds;
    private final int[] chipletNodes;
    private final int[] coreCount;
    private final int[] primaryOffset;
    private final int[] primaries;
    private final int[] siblingOffset;
    private final int[] siblings;
    private final int[] allSlots;
    private final int[] allSlotChiplet;

    private final int[] usedUnits;
    private final int[] usedCores;
    private final int[] usedSiblings;

    SpreadLocator(List<UsableTopology.UsableChiplet> order)
    {
        chiplets = order.size();
        chipletIds = new int[chiplets];
        chipletNodes = new int[chiplets];
        coreCount = new int[chiplets];
        primaryOffset = new int[chiplets + 1];
        siblingOffset = new int[chiplets + 1];
        int primaryTotal = 0;
        int siblingTotal = 0;
        for (int c = 0; c < chiplets; c++) {
            UsableTopology.UsableChiplet chiplet = order.get(c);
            chipletIds[c] = chiplet.id();
            chipletNodes[c] = chiplet.numaNode();
            coreCount[c] = chiplet.cores().length;
            primaryTotal += coreCount[c];
            siblingTotal += chiplet.cpuCount() - coreCount[c];
        }
        primaries = new int[primaryTotal];
        siblings = new int[siblingTotal];
        allSlots = new int[primaryTotal + siblingTotal];
        allSlotChiplet = new int[primaryTotal + siblingTotal];
        int p = 0;
        int s = 0;
        for (int c = 0; c < chiplets; c++) {
            primaryOffset[c] = p;
            siblingOffset[c] = s;
            int[] slots = order.get(c).cpuSlots();
            for (int k = 0; k < slots.length; k++) {
                if (k < coreCount[c]) {
                    primaries[p++] = slots[k];
                }
                else {
                    siblings[s++] = slots[k];
                }
            }
        }
        primaryOffset[chiplets] = p;
        siblingOffset[chiplets] = s;
        int slot = 0;
        for (int c = 0; c < chiplets; c++) {
            for (int k = primaryOffset[c]; k < primaryOffset[c + 1]; k++) {
                allSlotChiplet[slot] = c;
                allSlots[slot++] = primaries[k];
            }
        }
        for (int c = 0; c < chiplets; c++) {
            for (int k = siblingOffset[c]; k < siblingOffset[c + 1]; k++) {
                allSlotChiplet[slot] = c;
                allSlots[slot++] = siblings[k];
            }
        }
        usedUnits = new int[chiplets];
        usedCores = new int[chiplets];
        usedSiblings = new int[chiplets];
    }

    static SpreadLocator of(Topology topology, CpuSet allowed)
    {
        return new SpreadLocator(UsableTopology.of(topology, allowed).localOrder());
    }

    /** Usable chiplets: the upper bound of a spread (Algorithm 1's CHIPLETS). */
    public int chiplets()
    {
        return chiplets;
    }

    public int physicalCores()
    {
        return primaries.length;
    }

    /** The topology's id of the chiplet at {@code index} in this locator's order. */
    public int chipletId(int index)
    {
        return chipletIds[index];
    }

    public int numaNodeOfChiplet(int index)
    {
        return chipletNodes[index];
    }

    /**
     * Each worker placed for {@code spreads} (one per worker) as the planner's assignment: the CPU {@link #locate} gives
     * it, its chiplet by id and that chiplet's node. The one form both the adaptive start and each adaptive step take.
     */
    List<Assignment> assignments(int[] spreads)
    {
        requireNonNull(spreads, "spreads is null");
        int workers = spreads.length;
        int[] cpus = new int[workers];
        int[] chipletIndexes = new int[workers];
        locate(spreads, workers, cpus, chipletIndexes);
        List<Assignment> assignments = new ArrayList<>(workers);
        for (int worker = 0; worker < workers; worker++) {
            assignments.add(new Assignment(worker, OptionalInt.of(chipletId(chipletIndexes[worker])), CpuSet.of(cpus[worker]),
                    numaNodeOfChiplet(chipletIndexes[worker])));
        }
        return assignments;
    }

    /**
     * Places {@code workers} workers. Spreads outside {@code 1..chiplets()} are clamped.
     *
     * @param cpuOut receives each worker's CPU
     * @param chipletOut receives each worker's chiplet as an index in this locator's order (see {@link #chipletId})
     */
    public void locate(int[] spreads, int workers, int[] cpuOut, int[] chipletOut)
    {
        requireNonNull(spreads, "spreads is null");
        if (workers < 0 || spreads.length < workers || cpuOut.length < workers || chipletOut.length < workers) {
            throw new IllegalArgumentException("arrays must hold " + workers + " workers");
        }
        Arrays.fill(usedUnits, 0);
        Arrays.fill(usedCores, 0);
        Arrays.fill(usedSiblings, 0);
        int pending = 0;
        int firstOpen = 0;
        for (int worker = 0; worker < workers; worker++) {
            int spread = Math.max(1, Math.min(spreads[worker], chiplets));
            chipletOut[worker] = -1;
            while (firstOpen < chiplets && usedUnits[firstOpen] >= coreCount[firstOpen]) {
                firstOpen++;
            }
            for (int c = firstOpen; c < chiplets; c++) {
                int cost = Math.min(spread, coreCount[c]);
                if (usedUnits[c] + cost <= coreCount[c]) {
                    usedUnits[c] += cost;
                    cpuOut[worker] = primaries[primaryOffset[c] + usedCores[c]++];
                    chipletOut[worker] = c;
                    break;
                }
            }
            if (chipletOut[worker] < 0) {
                pending++;
            }
        }
        if (pending == 0) {
            return;
        }
        int chiplet = 0;
        for (int worker = 0; worker < workers && pending > 0; worker++) {
            if (chipletOut[worker] >= 0) {
                continue;
            }
            while (chiplet < chiplets && usedCores[chiplet] >= coreCount[chiplet]) {
                chiplet++;
            }
            if (chiplet == chiplets) {
                break;
            }
            cpuOut[worker] = primaries[primaryOffset[chiplet] + usedCores[chiplet]++];
            chipletOut[worker] = chiplet;
            pending--;
        }
        chiplet = 0;
        for (int worker = 0; worker < workers && pending > 0; worker++) {
            if (chipletOut[worker] >= 0) {
                continue;
            }
            while (chiplet < chiplets && usedSiblings[chiplet] >= siblingOffset[chiplet + 1] - siblingOffset[chiplet]) {
                chiplet++;
            }
            if (chiplet == chiplets) {
                break;
            }
            cpuOut[worker] = siblings[siblingOffset[chiplet] + usedSiblings[chiplet]++];
            chipletOut[worker] = chiplet;
            pending--;
        }
        int reuse = 0;
        for (int worker = 0; worker < workers && pending > 0; worker++) {
            if (chipletOut[worker] >= 0) {
                continue;
            }
            int slot = reuse++ % allSlots.length;
            cpuOut[worker] = allSlots[slot];
            chipletOut[worker] = allSlotChiplet[slot];
            pending--;
        }
    }
}
