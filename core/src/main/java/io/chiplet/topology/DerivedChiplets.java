package io.chiplet.topology;

/**
 * Completes the facts a reader found with the chiplets {@link ChipletDerivation} derives from them, so that every
 * reader derives chiplets the same way.
 */
final class DerivedChiplets
{
    private DerivedChiplets() {}

    /** @param facts a topology as read, whose chiplet list is ignored */
    static Topology attach(Topology facts, int virtualChipletCores)
    {
        return facts.toBuilder()
                .chiplets(ChipletDerivation.derive(
                        facts.online(),
                        facts.packages(),
                        facts.dies(),
                        facts.clusters(),
                        facts.numaNodes(),
                        facts.caches(),
                        facts.cores(),
                        virtualChipletCores))
                .build();
    }
}
