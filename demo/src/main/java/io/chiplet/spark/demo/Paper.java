package io.chiplet.spark.demo;

import static java.util.Objects.requireNonNull;

/** A publication the demo quotes a measured figure from, named as a reader would look it up. */
record Paper(String authors, String title, String venue)
{
    static final Paper CHIPLET_OLAP = new Paper("Fogli, Zhao, Pietzuch, Bandle, Giceva", "OLAP on Modern Chiplet-Based Processors",
            "PVLDB 17(11), 2024");
    static final Paper CHARM = new Paper("Fogli, Zhao, Pietzuch, Giceva", "CHARM: Chiplet Heterogeneity-Aware Runtime Mapping System",
            "EuroSys 2026");
    static final Paper SNC_SKYLAKE = new Paper("Mohapatra, Majji, Ratna Kumar, Arun Kumar, Karanam",
            "Authentication of Sub-NUMA Clustering effect on Intel Skylake for Memory Latency and Bandwidth", "journal article, 2021");
    static final Paper HYBRID_CORES = new Paper("Schuhknecht, Islam", "Inter-Query Parallelism on Heterogeneous Multi-Core CPUs",
            "experience report, Johannes Gutenberg University Mainz");

    Paper
    {
        requireNonNull(authors, "authors is null");
        requireNonNull(title, "title is null");
        requireNonNull(venue, "venue is null");
    }

    String citation()
    {
        return authors + ", \"" + title + "\", " + venue;
    }
}
