package io.chiplet.affinity;

/** Where a thread ran at one instant, as {@code getcpu(2)} reports it ({@link CurrentCpu#location()}). */
public record CpuLocation(int cpu, int numaNode) {}
