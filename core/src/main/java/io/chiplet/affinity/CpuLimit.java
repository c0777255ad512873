package io.chiplet.affinity;

/**
 * The CPUs a {@link ThreadBinder} checks targets against and restores threads within: as at start, or as its latest
 * {@link ThreadBinder#follow} gave them, in the kernel's form ({@code words} {@code null} before the first change:
 * restores need no limit), and how many changes there were ({@code generation}: a thread's kept mask read under an
 * older one is stale). Shared by the binder, which replaces it, and its {@link BoundThread}s, which read it.
 */
record CpuLimit(PinnableCpus pinnable, long[] words, int generation) {}
